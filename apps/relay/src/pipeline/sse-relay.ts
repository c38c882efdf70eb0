import { OPENAI_STREAM_DONE, SseDecoder, type SseEvent } from '../sse/sse';
import type { CallStatus } from '../usage/usage-event';
import type { ClientReply } from './client-reply';

/**
 * Relays an upstream event stream to the client, one decoded event at a time through `forward`
 * (which writes what the client should see), and says how the stream ended. `complete` says whether
 * the upstream's answer had arrived whole (its closing event was forwarded, see `endsAnswer`): a body
 * that fails after that is a complete answer (success, charged), before it one broken off.
 */
export async function relaySseStream(
  reply: ClientReply,
  body: AsyncIterable<Buffer>,
  forward: (event: SseEvent) => Promise<void>,
  complete: () => boolean = () => false,
): Promise<CallStatus> {
  const decoder = new SseDecoder();
  reply.startStream('text/event-stream; charset=utf-8');
  try {
    for await (const bytes of body) for (const event of decoder.push(bytes)) await forward(event);
    for (const event of decoder.end()) await forward(event);
    return 'success';
  } catch {
    if (reply.aborted) return 'client_aborted';
    return complete() ? 'success' : 'upstream_error';
  } finally {
    reply.end();
  }
}

/**
 * Whether an upstream event closes its answer: OpenAI's `[DONE]`, a completions choice's finish
 * reason, the Responses API's `response.completed` / `response.incomplete` (not `response.failed`),
 * a streamed transcript's `transcript.text.done`, streamed speech's `speech.audio.done`. `payload` is
 * the event's parsed data (parsedEventData).
 */
export function endsAnswer(event: SseEvent, payload: unknown): boolean {
  if (event.data === OPENAI_STREAM_DONE) return true;
  if (typeof payload !== 'object' || payload === null) return false;
  const record = payload as { type?: unknown; choices?: unknown };
  switch (record.type) {
    case 'response.completed':
    case 'response.incomplete':
    case 'transcript.text.done':
    case 'speech.audio.done':
      return true;
  }
  const choice = Array.isArray(record.choices)
    ? (record.choices[0] as { finish_reason?: unknown })
    : undefined;
  return typeof choice?.finish_reason === 'string';
}

/** An event's JSON data, or undefined when it holds none (`[DONE]`, a comment). */
export function parsedEventData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
