import type { JsonObject } from '../../canonical';

export interface OpenAiBodyOptions {
  upstreamModel: string;
  /** Ask a streaming upstream for its final usage chunk (the relay bills from it). */
  forceStreamUsage: boolean;
}

/** The client's body with the channel's model name and, on streams, usage requested. */
export function openAiUpstreamBody(body: JsonObject, options: OpenAiBodyOptions): JsonObject {
  const upstream: JsonObject = { ...body, model: options.upstreamModel };
  if (body['stream'] === true && options.forceStreamUsage) {
    const streamOptions = body['stream_options'];
    const current = typeof streamOptions === 'object' && streamOptions !== null ? streamOptions : {};
    upstream['stream_options'] = { ...current, include_usage: true };
  }
  return upstream;
}
