import { anthropicFieldsOf, type ChatMessage } from '../../canonical';
import type { AnthropicContentBlock } from './types';

function isUnsignedThinking(block: AnthropicContentBlock): boolean {
  return block.type === 'thinking' && (typeof block.signature !== 'string' || block.signature === '');
}

/**
 * A history turn's blocks without the thinking nobody signed: an OpenAI-style upstream's reasoning
 * (DeepSeek's reasoning_content) reaches an Anthropic client as a thinking block with an empty
 * signature, which the client sends back and Anthropic refuses. Dropped, as LiteLLM does; signed
 * blocks (also a signed one with empty text) and redacted_thinking stay as they came. The same array
 * when there is nothing to drop.
 */
export function withoutUnsignedThinking(blocks: AnthropicContentBlock[]): AnthropicContentBlock[] {
  return blocks.some(isUnsignedThinking) ? blocks.filter((block) => !isUnsignedThinking(block)) : blocks;
}

/**
 * Whether the request continues a tool call whose turn had only unsigned thinking before it. With
 * thinking on, Anthropic wants that turn to start with a (signed) thinking block and refuses it
 * otherwise, its error saying to disable thinking: that call is then sent without thinking.
 */
export function continuesToolCallWithoutItsThinking(messages: readonly ChatMessage[]): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return false;
    const blocks = anthropicFieldsOf(message)?.blocks as unknown as AnthropicContentBlock[] | undefined;
    if (blocks === undefined) return false;
    const kept = withoutUnsignedThinking(blocks);
    return kept !== blocks && kept[0]?.type !== 'thinking' && kept[0]?.type !== 'redacted_thinking';
  }
  return false;
}
