import type { JsonObject } from '../../canonical';

export interface OpenAiBodyOptions {
  upstreamModel: string;
  /** Ask a streaming upstream for its final usage chunk (the relay bills from it). */
  forceStreamUsage: boolean;
  /**
   * A chat call to an OpenAI-compatible provider: its answer limit goes as `max_tokens`, the field
   * they all read (DeepSeek, Mistral, Qwen and others ignore or refuse `max_completion_tokens`, and an
   * ignored limit lets the upstream answer past what was reserved).
   */
  limitAsMaxTokens?: boolean;
}

/** The client's body with the channel's model name and, on streams, usage requested. */
export function openAiUpstreamBody(body: JsonObject, options: OpenAiBodyOptions): JsonObject {
  const upstream: JsonObject = { ...body, model: options.upstreamModel };
  if (options.limitAsMaxTokens === true && body['max_completion_tokens'] !== undefined) {
    upstream['max_tokens'] = body['max_completion_tokens'];
    delete upstream['max_completion_tokens'];
  }
  if (body['stream'] === true && options.forceStreamUsage) {
    const streamOptions = body['stream_options'];
    const current = typeof streamOptions === 'object' && streamOptions !== null ? streamOptions : {};
    upstream['stream_options'] = { ...current, include_usage: true };
  }
  return upstream;
}
