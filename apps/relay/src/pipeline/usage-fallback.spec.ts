import type { ChatCompletionChunk } from '../canonical';
import { GeneratedText } from './usage-fallback';

const chunk = (delta: ChatCompletionChunk['choices'][number]['delta']): ChatCompletionChunk =>
  ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null }],
  }) as ChatCompletionChunk;

describe('GeneratedText', () => {
  it("counts a long answer's whole text, in order, however many chunks it came in", () => {
    const counted: string[] = [];
    const generated = new GeneratedText({
      countTextTokens: (text) => {
        counted.push(text);
        return text.length;
      },
      countPromptTokens: () => 0,
    });
    const words = Array.from({ length: 1000 }, (_, i) => `w${i} `);
    for (const word of words) generated.addChunk(chunk({ content: word }));
    generated.addChunk(chunk({ reasoning_content: 'why' }));
    generated.addChunk(
      chunk({
        tool_calls: [{ index: 0, id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
      }),
    );

    expect(generated.tokens()).toBe(words.join('').length + 'why'.length + 'f{}'.length);
    expect(counted).toEqual([`${words.join('')}whyf{}`]);
  });

  it('counts nothing for an answer that generated nothing', () => {
    const generated = new GeneratedText({
      countTextTokens: () => {
        throw new Error('nothing to count');
      },
      countPromptTokens: () => 0,
    });
    generated.addChunk(chunk({ role: 'assistant' }));
    expect(generated.tokens()).toBe(0);
  });
});
