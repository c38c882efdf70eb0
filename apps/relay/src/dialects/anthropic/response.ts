import {
  anthropicFieldsOf,
  type ChatCompletionResponse,
  normalizeOpenAiUsage,
  parseToolArguments,
} from '../../canonical';
import { stopReasonFromFinish } from './stop-reason';
import type { AnthropicContentBlock, AnthropicMessage } from '../../providers/anthropic/types';
import { toAnthropicUsage } from './usage';

const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0 };

/** Canonical chat completion → Anthropic message, for `/v1/messages` clients. */
export function toAnthropicClientResponse(
  response: ChatCompletionResponse,
  requestedModel: string,
): AnthropicMessage {
  const message = response.choices[0]?.message;
  const upstreamBlocks = anthropicFieldsOf(message)?.blocks as AnthropicContentBlock[] | undefined;
  const content = upstreamBlocks ?? contentOf(message);
  return {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: requestedModel,
    content,
    stop_reason: stopReasonFromFinish(response.choices[0]?.finish_reason),
    stop_sequence: null,
    usage: toAnthropicUsage(normalizeOpenAiUsage(response.usage) ?? NO_USAGE),
  };
}

/** The answer's blocks from its canonical fields (an answer from a non-Anthropic upstream). */
function contentOf(message: ChatCompletionResponse['choices'][number]['message'] | undefined) {
  const content: AnthropicContentBlock[] = [];
  if (message?.reasoning_content !== undefined && message.reasoning_content !== '') {
    content.push({ type: 'thinking', thinking: message.reasoning_content });
  }
  if (typeof message?.content === 'string' && message.content !== '')
    content.push({ type: 'text', text: message.content });
  for (const call of message?.tool_calls ?? []) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseToolArguments(call.function.arguments, call.function.name),
    });
  }
  return content;
}
