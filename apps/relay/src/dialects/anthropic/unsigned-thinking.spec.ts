import { fromAnthropicClientRequest } from './request';
import { toAnthropicMessagesRequest } from '../../providers/anthropic/chat-request';
import type { AnthropicContentBlock, AnthropicMessagesRequest } from '../../providers/anthropic/types';

// An Anthropic client (Claude Code, the SDKs) sends its history back as it got it. Thinking that an
// OpenAI-style upstream produced (DeepSeek's reasoning_content) came to it with an empty signature;
// Anthropic refuses such a block, so an Anthropic channel is sent the history without it.

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds';
const THINKING = { type: 'enabled', budget_tokens: 2048 } as const;
const TOOL_USE = { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } } as const;

function sentToAnthropic(
  assistant: AnthropicContentBlock[],
  next: AnthropicContentBlock[],
  thinking: AnthropicMessagesRequest['thinking'] = THINKING,
): AnthropicMessagesRequest {
  const request: AnthropicMessagesRequest = {
    model: 'claude',
    max_tokens: 4096,
    thinking,
    messages: [
      { role: 'user', content: 'Question' },
      { role: 'assistant', content: assistant },
      { role: 'user', content: next },
    ],
  };
  return toAnthropicMessagesRequest(fromAnthropicClientRequest(request), 'claude-up');
}

const FOLLOW_UP: AnthropicContentBlock[] = [{ type: 'text', text: 'And then?' }];
const TOOL_RESULT: AnthropicContentBlock[] = [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }];

describe('unsigned thinking in the history, on an Anthropic channel', () => {
  it('drops thinking blocks with an empty or no signature, keeping the rest of the turn in order', () => {
    const sent = sentToAnthropic(
      [
        { type: 'thinking', thinking: 'DeepSeek reasoned.', signature: '' },
        { type: 'thinking', thinking: 'No signature at all.' },
        { type: 'text', text: 'Answer.' },
      ],
      FOLLOW_UP,
    );
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Answer.' }] });
    expect(sent.thinking).toEqual(THINKING);
  });

  it('keeps signed thinking (also with empty text) and redacted_thinking as they came', () => {
    const turn: AnthropicContentBlock[] = [
      { type: 'thinking', thinking: '', signature: SIGNATURE },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      { type: 'thinking', thinking: 'Signed.', signature: SIGNATURE },
      { type: 'text', text: 'Answer.' },
    ];
    expect(sentToAnthropic(turn, FOLLOW_UP).messages[1]!.content).toEqual(turn);
  });

  it('asks no thinking for a call continuing a tool call whose turn had only unsigned thinking', () => {
    const sent = sentToAnthropic(
      [{ type: 'thinking', thinking: 'DeepSeek reasoned.', signature: '' }, TOOL_USE],
      TOOL_RESULT,
    );
    expect(sent.messages[1]!.content).toEqual([TOOL_USE]);
    expect(sent.thinking).toBeUndefined();
  });

  it('keeps thinking on for a tool call whose turn starts with signed thinking', () => {
    const sent = sentToAnthropic(
      [
        { type: 'thinking', thinking: 'Signed.', signature: SIGNATURE },
        { type: 'thinking', thinking: 'Unsigned.', signature: '' },
        TOOL_USE,
      ],
      TOOL_RESULT,
    );
    expect(sent.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'Signed.', signature: SIGNATURE },
      TOOL_USE,
    ]);
    expect(sent.thinking).toEqual(THINKING);
  });

  it('sends thinking disabled as the client asked', () => {
    const sent = sentToAnthropic(
      [{ type: 'thinking', thinking: 'DeepSeek reasoned.', signature: '' }, TOOL_USE],
      TOOL_RESULT,
      { type: 'disabled' },
    );
    expect(sent.thinking).toEqual({ type: 'disabled' });
  });
});
