import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ClientGoneError, JSON_REPLY_CONTENT_TYPE, type ClientReply } from '../pipeline/client-reply';
import { CallAbortSource } from '../upstream/call-abort';
import { frameChunk, frameChunksItself, LAST_CHUNK } from '@tollgate/runtime';

/** What a write the client can take at once resolves with: one promise for every such write. */
const WRITTEN = Promise.resolve();

/**
 * A ClientReply over Fastify. A stream is written straight to the Node response, taken from Fastify
 * (`hijack`): its onResponse hooks (access log, metrics) still run when the response finishes, and a
 * PassThrough piped to the socket cost every chunk its own stream machinery and the answer's end a
 * write of its own. The client closing the connection before the answer finished aborts the reply,
 * which cancels the upstream call.
 */
export class FastifyClientReply implements ClientReply {
  private readonly gone = new CallAbortSource();
  private stream: ServerResponse | undefined;
  /** The stream's chunked framing is written here, each piece as one write (@tollgate/runtime, chunked-framing.ts). */
  private framed = false;

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

  /**
   * The status and headers (the reply's own, such as `x-request-id` and the rate limits, and the
   * stream's) go out with the first chunk, in one write.
   */
  startStream(contentType: string): void {
    const raw = this.reply.raw;
    const headers = {
      ...(this.reply.getHeaders() as Record<string, string>),
      'content-type': contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    };
    this.reply.hijack();
    // Not Fastify's any more: an error on the socket is the client leaving, which 'close' reports.
    raw.on('error', noop);
    raw.writeHead(200, headers);
    this.framed = frameChunksItself(raw);
    this.stream = raw;
  }

  /** Writes that happen in one turn of the event loop leave in one system call (Node corks them). */
  write(text: string | Buffer): Promise<void> {
    const stream = this.stream;
    if (stream === undefined) throw new Error('write() before startStream()');
    if (this.aborted || stream.destroyed || stream.writableEnded)
      return Promise.reject(new ClientGoneError());
    if (text.length === 0) return WRITTEN;
    return stream.write(this.framed ? frameChunk(text) : text) ? WRITTEN : this.drained(stream);
  }

  end(): void {
    const stream = this.stream;
    if (stream === undefined || stream.destroyed || stream.writableEnded) return;
    if (this.framed) stream.end(LAST_CHUNK);
    else stream.end();
  }

  /** Only a write that must wait pays for listeners: the client taking more, or leaving. */
  private drained(stream: ServerResponse): Promise<void> {
    if (this.aborted) return Promise.reject(new ClientGoneError());
    return new Promise((resolve, reject) => {
      const onDrain = (): void => {
        stopWaiting();
        resolve();
      };
      const stopWaiting = this.gone.onAbort(() => {
        stream.off('drain', onDrain);
        reject(new ClientGoneError());
      });
      stream.once('drain', onDrain);
    });
  }
}

function noop(): void {}
