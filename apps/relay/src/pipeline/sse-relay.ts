import { SseDecoder, type SseEvent } from '../sse/sse';
import type { CallStatus } from '../usage/usage-event';
import type { ClientReply } from './client-reply';

/**
 * Relays an upstream event stream to the client, one decoded event at a time through `forward`
 * (which writes what the client should see), and says how the stream ended.
 */
export async function relaySseStream(
  reply: ClientReply,
  body: AsyncIterable<Buffer>,
  forward: (event: SseEvent) => Promise<void>,
): Promise<CallStatus> {
  const decoder = new SseDecoder();
  reply.startStream('text/event-stream; charset=utf-8');
  try {
    for await (const bytes of body) for (const event of decoder.push(bytes)) await forward(event);
    for (const event of decoder.end()) await forward(event);
    return 'success';
  } catch {
    return reply.aborted ? 'client_aborted' : 'upstream_error';
  } finally {
    reply.end();
  }
}

/** An event's JSON data, or undefined when it holds none (`[DONE]`, a comment). */
export function parsedEventData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
