import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ClientGoneError, JSON_REPLY_CONTENT_TYPE, type ClientReply } from '../pipeline/client-reply';
import { CallAbortSource } from '../upstream/call-abort';

/** Stream chunks are small; a little buffering lets a slow client apply back-pressure early. */
const STREAM_HIGH_WATER_MARK = 16 * 1024;

/**
 * A ClientReply over Fastify. Streams go out through a PassThrough that Fastify pipes to the socket,
 * so its hooks (access log, metrics) still see the response; the client closing the connection before
 * the answer finished aborts the reply, which cancels the upstream call.
 */
export class FastifyClientReply implements ClientReply {
  private readonly gone = new CallAbortSource();
  private stream: PassThrough | undefined;

  constructor(private readonly reply: FastifyReply) {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) this.gone.abort();
    });
  }

  get aborted(): boolean {
    return this.gone.aborted;
  }

  onAbort(listener: () => void): () => void {
    return this.gone.onAbort(listener);
  }

  get streamStarted(): boolean {
    return this.stream !== undefined;
  }

  setHeaders(headers: Readonly<Record<string, string>>): void {
    if (!this.reply.sent) void this.reply.headers(headers);
  }

  sendJson(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
    void this.reply.code(status).headers(headers).type(JSON_REPLY_CONTENT_TYPE).send(JSON.stringify(body));
  }

  sendRaw(status: number, contentType: string, body: Buffer | string): void {
    void this.reply.code(status).type(contentType).send(body);
  }

  startStream(contentType: string): void {
    const stream = new PassThrough({ highWaterMark: STREAM_HIGH_WATER_MARK });
    // Fastify destroys the stream when the client leaves; the abort signal reports that instead.
    stream.on('error', () => undefined);
    this.stream = stream;
    void this.reply
      .code(200)
      .headers({ 'cache-control': 'no-cache', 'x-accel-buffering': 'no' })
      .type(contentType)
      .send(stream);
  }

  async write(text: string | Buffer): Promise<void> {
    const stream = this.stream;
    if (stream === undefined) throw new Error('write() before startStream()');
    if (this.aborted || stream.destroyed) throw new ClientGoneError();
    if (stream.write(text)) return;
    // Only a write that must wait pays for an AbortSignal.
    const waiting = new AbortController();
    const stopWaiting = this.gone.onAbort(() => waiting.abort());
    try {
      await once(stream, 'drain', { signal: waiting.signal });
    } catch {
      throw new ClientGoneError();
    } finally {
      stopWaiting();
    }
  }

  end(): void {
    if (this.stream !== undefined && !this.stream.destroyed) this.stream.end();
  }
}
