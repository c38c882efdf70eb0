import type { ChatCompletionChunk, ChatCompletionChunkChoice, ChatCompletionUsage } from './chat';

/** Stamps id, model and created on every chunk of one stream. */
export class ChunkBuilder {
  id = '';
  model = '';

  constructor(private readonly created: number) {}

  choice(
    delta: ChatCompletionChunkChoice['delta'],
    finishReason: ChatCompletionChunkChoice['finish_reason'] = null,
  ): ChatCompletionChunk {
    return this.chunk([{ index: 0, delta, finish_reason: finishReason }]);
  }

  /** The final chunk of an OpenAI stream with `include_usage`: no choices, only usage. */
  usage(usage: ChatCompletionUsage): ChatCompletionChunk {
    return { ...this.chunk([]), usage };
  }

  private chunk(choices: ChatCompletionChunkChoice[]): ChatCompletionChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices,
    };
  }
}
