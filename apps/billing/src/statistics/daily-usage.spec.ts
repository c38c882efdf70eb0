import type { UsageRecorded } from '@tollgate/contracts';
import { dailyUsageDeltas } from './daily-usage';

const at = (iso: string) => Date.parse(iso) / 1000;

function usage(overrides: Partial<UsageRecorded>): UsageRecorded {
  return {
    v: 1,
    event_id: '00000000-0000-4000-8000-000000000000',
    request_id: 'r',
    user_id: 1,
    token_id: 5,
    token_name: 't',
    channel_id: 1,
    group: 'default',
    model: 'gpt-4o',
    upstream_model: 'gpt-4o',
    prompt_tokens: 10,
    completion_tokens: 5,
    cached_tokens: 2,
    quota: 100,
    price: { input: '1', output: '1', cached_input: '1', group_ratio: '1' },
    latency_ms: 10,
    ttft_ms: null,
    is_stream: false,
    status: 'success',
    created_at: at('2026-11-26T12:00:00Z'),
    ...overrides,
  };
}

describe('dailyUsageDeltas', () => {
  it('sums events per user, Moscow day, model and token, a missing token counting as token 0', () => {
    const deltas = dailyUsageDeltas([
      usage({ quota: 100 }),
      usage({ quota: 50, prompt_tokens: 1, created_at: at('2026-11-26T20:59:59Z') }),
      usage({ quota: 7, created_at: at('2026-11-26T21:00:00Z') }),
      usage({ quota: 3, token_id: null }),
    ]);
    expect(deltas).toEqual([
      expect.objectContaining({ day: '2026-11-26', tokenId: 0, requests: 1, quota: 3 }),
      expect.objectContaining({ day: '2026-11-26', tokenId: 5, requests: 2, quota: 150, promptTokens: 11 }),
      expect.objectContaining({ day: '2026-11-27', tokenId: 5, requests: 1, quota: 7 }),
    ]);
  });
});
