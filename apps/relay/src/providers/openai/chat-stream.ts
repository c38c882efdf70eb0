import type { ChatStreamTransformer } from '../provider-adapter';
import {
  MalformedUpstreamResponseError,
  type NormalizedUsage,
  type ChatCompletionChunk,
  normalizeOpenAiUsage,
  rememberUpstreamData,
} from '../../canonical';
import { UpstreamStreamError } from '../provider-errors';
import { OPENAI_STREAM_DONE, type SseEvent } from '../../sse/sse';

function parseChunk(data: string): ChatCompletionChunk & { error?: { type?: string; message?: string } } {
  try {
    return JSON.parse(data) as ChatCompletionChunk;
  } catch {
    throw new MalformedUpstreamResponseError('stream event is not JSON');
  }
}

/** OpenAI-style streams are canonical already: chunks pass through; the usage chunk is remembered. */
export class OpenAiChatStream implements ChatStreamTransformer {
  private reported: NormalizedUsage | undefined;

  push(event: SseEvent): ChatCompletionChunk[] {
    if (event.data === OPENAI_STREAM_DONE) return [];
    const chunk = parseChunk(event.data);
    if (chunk.error !== undefined) {
      throw new UpstreamStreamError(
        chunk.error.type ?? 'error',
        chunk.error.message ?? 'upstream stream error',
      );
    }
    // Moonshot puts the usage of a stream inside its last choice instead of at the top.
    const usage = chunk.usage ?? (chunk.choices?.[0] as { usage?: unknown } | undefined)?.usage;
    const normalized = normalizeOpenAiUsage(usage);
    if (normalized !== undefined) this.reported = normalized;
    rememberUpstreamData(chunk, event.data);
    return [chunk];
  }

  end(): ChatCompletionChunk[] {
    return [];
  }

  usage(): NormalizedUsage | undefined {
    return this.reported;
  }
}
