import { readAnswer } from './answer-stream';

async function* bytes(...pieces: string[]): AsyncIterable<Uint8Array> {
  for (const piece of pieces) yield new TextEncoder().encode(piece);
}

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

describe('readAnswer', () => {
  it('passes text on as it arrives, even when an event is split across reads, and reads the charge', async () => {
    const seen: string[] = [];
    const whole = chunk('Hel') + chunk('lo', 'stop');
    const end = await readAnswer(
      bytes(
        whole.slice(0, 20),
        whole.slice(20),
        'event: tollgate.charge\ndata: {"quota":7,"prompt_tokens":3,"completion_tokens":2,"model":"m"}\n\n',
        'data: [DONE]\n\n',
      ),
      (text) => void seen.push(text),
    );
    expect(seen).toEqual(['Hel', 'lo']);
    expect(end).toEqual({
      text: 'Hello',
      finishReason: 'stop',
      complete: true,
      charge: { quota: 7, prompt_tokens: 3, completion_tokens: 2, model: 'm' },
    });
  });

  it('reports an error chunk and a stream that ends without [DONE] as incomplete', async () => {
    const end = await readAnswer(
      bytes(chunk('Part'), `data: ${JSON.stringify({ error: { message: 'The upstream broke off' } })}\n\n`),
      () => undefined,
    );
    expect(end).toMatchObject({ text: 'Part', complete: false, error: 'The upstream broke off' });
    expect(end.charge).toBeUndefined();
  });
});
