import type { ServerResponse } from 'node:http';
import type { BytesReply, JsonReply, Reply, StreamReply } from '../fake-upstream.reply';
import type { StatsRecorder } from '../fake-upstream.stats';

export interface DeliveryTiming {
  latencyMs: number;
  chunkMs: number;
  dropAfter: number | null;
  breakAfterEnd: boolean;
}

function writeJson(response: ServerResponse, reply: JsonReply): void {
  const headers = [
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(reply.body)),
  ];
  if (reply.headers !== undefined) headers.push(...reply.headers);
  response.writeHead(reply.status, headers);
  response.end(reply.body);
}

function writeBytes(response: ServerResponse, reply: BytesReply): void {
  response.writeHead(reply.status, [
    'content-type',
    reply.contentType,
    'content-length',
    String(reply.body.length),
  ]);
  response.end(reply.body);
}

/**
 * Writes a stream: `head`, then the content chunks `chunkMs` apart, then `tail`. With `dropAfter`
 * the socket is destroyed once that many chunks are flushed, so the client sees a cut stream
 * (no terminating chunk), as when a provider's connection breaks. With `breakAfterEnd` the same
 * happens once `tail` is flushed: the whole answer arrived, the body still ends in an error.
 */
function writeStream(
  response: ServerResponse,
  reply: StreamReply,
  timing: DeliveryTiming,
  stats: StatsRecorder,
): void {
  stats.increment('streamsStarted');
  stats.activeStreams += 1;
  let dropped = false;
  let timer: NodeJS.Timeout | undefined;
  response.once('close', () => {
    clearTimeout(timer);
    stats.activeStreams -= 1;
    if (dropped) stats.increment('droppedStreams');
    else if (response.writableFinished) stats.increment('streamsCompleted');
    else stats.increment('abortedStreams');
  });
  const drop = (): void => {
    dropped = true;
    response.socket?.destroy();
  };

  response.writeHead(200, ['content-type', reply.contentType, 'cache-control', 'no-cache']);
  const { deltas } = reply;
  const dropAfter = timing.dropAfter !== null && timing.dropAfter < deltas.length ? timing.dropAfter : null;
  const finish = (text: string): void => {
    if (timing.breakAfterEnd) response.write(text, drop);
    else response.end(text);
  };

  if (timing.chunkMs === 0) {
    if (dropAfter === null) finish(reply.head + deltas.join('') + reply.tail);
    else response.write(reply.head + deltas.slice(0, dropAfter).join(''), drop);
    return;
  }

  let next = 0;
  const step = (): void => {
    if (response.destroyed) return;
    if (next === deltas.length) {
      finish(reply.tail);
      return;
    }
    const delta = deltas[next]!;
    next += 1;
    if (next === dropAfter) {
      response.write(delta, drop);
      return;
    }
    response.write(delta);
    if (next === deltas.length) finish(reply.tail);
    else timer = setTimeout(step, timing.chunkMs);
  };
  if (dropAfter === 0) {
    response.write(reply.head, drop);
    return;
  }
  response.write(reply.head);
  step();
}

function writeReply(
  response: ServerResponse,
  reply: Reply,
  timing: DeliveryTiming,
  stats: StatsRecorder,
): void {
  if (response.destroyed) return;
  switch (reply.kind) {
    case 'json':
      writeJson(response, reply);
      return;
    case 'bytes':
      writeBytes(response, reply);
      return;
    case 'stream':
      writeStream(response, reply, timing, stats);
      return;
  }
}

/** Sends a reply after the configured latency, noting clients that leave while they wait. */
export function deliverReply(
  response: ServerResponse,
  reply: Reply,
  timing: DeliveryTiming,
  stats: StatsRecorder,
): void {
  if (timing.latencyMs === 0) {
    writeReply(response, reply, timing, stats);
    return;
  }
  const timer = setTimeout(() => writeReply(response, reply, timing, stats), timing.latencyMs);
  response.once('close', () => {
    if (response.headersSent) return;
    clearTimeout(timer);
    stats.increment(reply.kind === 'stream' ? 'abortedStreams' : 'abortedRequests');
  });
}
