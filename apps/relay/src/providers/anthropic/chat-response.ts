import {
  toOpenAiUsage,
  withAnthropicFields,
  type JsonObject,
  type ChatCompletionResponse,
  type ToolCall,
  MalformedUpstreamResponseError,
} from '../../canonical';
import type { ResponseContext } from '../provider-adapter';
import { finishReasonFromAnthropic } from './stop-reason';
import type { AnthropicMessage } from './types';
import { normalizeAnthropicUsage } from './usage';

/** Anthropic message → OpenAI chat completion. */
export function fromAnthropicMessage(body: unknown, context: ResponseContext): ChatCompletionResponse {
  const message = body as Partial<AnthropicMessage> | null;
  if (typeof message !== 'object' || message === null || !Array.isArray(message.content)) {
    throw new MalformedUpstreamResponseError('Anthropic message without a content array');
  }
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  let thinks = false;
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') {
      reasoning += block.thinking;
      thinks = true;
    } else if (block.type === 'redacted_thinking') thinks = true;
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const answer: ChatCompletionResponse['choices'][number]['message'] = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
  };
  // An Anthropic client gets the blocks as they came, signatures included, to send back next turn.
  if (thinks) withAnthropicFields(answer, { blocks: message.content as unknown as JsonObject[] });
  return {
    id: message.id ?? '',
    object: 'chat.completion',
    created: context.created,
    model: message.model ?? '',
    choices: [
      {
        index: 0,
        message: answer,
        finish_reason: finishReasonFromAnthropic(message.stop_reason),
      },
    ],
    usage: toOpenAiUsage(normalizeAnthropicUsage(message.usage)),
  };
}
