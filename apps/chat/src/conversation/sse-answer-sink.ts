import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChatStreamEvent } from '@tollgate/contracts';
import type { FastifyReply } from 'fastify';
import type { AnswerSink } from './answer-sink';

/**
 * The browser's connection as an AnswerSink: one `data:` line per event through a PassThrough that
 * Fastify pipes to the socket (its hooks still see the answer). The browser closing the connection
 * before the answer ended aborts `signal`, which cancels the call to relay.
 */
export class SseAnswerSink implements AnswerSink {
  private readonly controller = new AbortController();
  private stream?: PassThrough;

  constructor(private readonly reply: FastifyReply) {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) this.controller.abort();
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  open(): void {
    const stream = new PassThrough();
    stream.on('error', () => undefined);
    this.stream = stream;
    void this.reply
      .code(200)
      .headers({ 'cache-control': 'no-cache', 'x-accel-buffering': 'no' })
      .type('text/event-stream; charset=utf-8')
      .send(stream);
  }

  async send(event: ChatStreamEvent): Promise<void> {
    const stream = this.stream;
    if (!stream || stream.destroyed || this.signal.aborted) return;
    if (stream.write(`data: ${JSON.stringify(event)}\n\n`)) return;
    await once(stream, 'drain', { signal: this.signal }).catch(() => undefined);
  }

  end(): void {
    if (this.stream && !this.stream.destroyed) this.stream.end();
  }
}
