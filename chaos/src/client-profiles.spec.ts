import { isWholeAnswer, planCall, type PlannedCall } from './client-profiles';

const calls = (profile: Parameters<typeof planCall>[0], count: number): PlannedCall[] =>
  Array.from({ length: count }, (_, n) => planCall(profile, 'sk-key', n, 'c1'));

describe('chaos client profiles', () => {
  it('keeps the original client: plain and streamed chat completions with a small max_tokens', () => {
    const [plain, stream] = calls('openai', 2);
    expect(plain).toMatchObject({ kind: 'plain', path: '/v1/chat/completions', body: { max_tokens: 16 } });
    expect(stream).toMatchObject({ kind: 'stream', body: { max_tokens: 16, stream: true } });
  });

  it('sends n = 2 and calls naming no limit, plain and streamed', () => {
    const bodies = calls('reservations', 4).map((c) => c.body);
    expect(bodies.some((b) => b['n'] === 2 && b['max_tokens'] === 16)).toBe(true);
    expect(bodies.some((b) => b['n'] === 2 && !('max_tokens' in b) && b['stream'] === true)).toBe(true);
    expect(bodies.some((b) => b['n'] === undefined && !('max_tokens' in b))).toBe(true);
  });

  it('speaks Anthropic to /v1/messages with its key header, a cache breakpoint and thinking', () => {
    const planned = calls('anthropic', 5);
    const messages = planned.filter((c) => c.path === '/v1/messages');
    expect(messages.every((c) => c.headers['x-api-key'] === 'sk-key' && c.headers['anthropic-version'])).toBe(
      true,
    );
    const cached = planned.find((c) => c.shape === 'cache_control')!;
    const system = (cached.body['system'] as { text: string; cache_control?: unknown }[])[0]!;
    expect(system.cache_control).toEqual({ type: 'ephemeral' });
    // Anthropic caches from 1,024 tokens: a word is at least one token.
    expect(system.text.split(' ').length).toBeGreaterThan(1024);
    const thinking = planned.find((c) => c.shape === 'thinking')!;
    expect(thinking).toMatchObject({ kind: 'messages-stream', body: { thinking: { budget_tokens: 1024 } } });
    expect(planned.find((c) => c.shape === 'reasoning_effort, no limit')?.body).not.toHaveProperty(
      'max_tokens',
    );
  });

  it('writes the cache again after a few cached calls, so writes are charged during the whole run', () => {
    const systemOf = (n: number) =>
      (planCall('anthropic', 'k', n, 'c1').body['system'] as { text: string }[])[0]!.text;
    expect(systemOf(2)).toBe(systemOf(7));
    expect(systemOf(2)).not.toBe(systemOf(2 + 5 * 6));
  });

  it('tells a whole answer of each kind from a cut one', () => {
    expect(isWholeAnswer('plain', '{"choices":[]}')).toBe(true);
    expect(isWholeAnswer('plain', '{"choices":[')).toBe(false);
    expect(isWholeAnswer('stream', 'data: {}\n\ndata: [DONE]\n\n')).toBe(true);
    expect(isWholeAnswer('messages', '{"type":"message","content":[]}')).toBe(true);
    expect(isWholeAnswer('messages', '{"type":"error","error":{}}')).toBe(false);
    expect(isWholeAnswer('messages-stream', 'event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(
      true,
    );
    expect(isWholeAnswer('messages-stream', 'event: message_start\n')).toBe(false);
  });
});
