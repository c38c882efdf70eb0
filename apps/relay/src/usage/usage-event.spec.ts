import { usageRecordedV1 } from '@tollgate/contracts';
import { aPriceSnapshotWithCacheWrites, aUsageWithCacheWrites } from '@tollgate/testing';
import { aToken, aUser } from '../../test/support/fixtures';
import { usageRecordedEvent } from './usage-event';

describe('usageRecordedEvent', () => {
  it('builds a valid usage.recorded v1 payload from a served call', () => {
    const event = usageRecordedEvent({
      eventId: '6f1c1a55-9a3e-4e43-8d55-0c51d2a4a7b1',
      requestId: 'r'.repeat(200),
      caller: { token: aToken({ id: 3, name: 'n'.repeat(80) }), user: aUser(7), group: 'vip' },
      channelId: 11,
      model: 'gpt-4o-mini',
      upstreamModel: 'gpt-4o-mini-2024-07-18',
      price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
      usage: { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 12 },
      quota: 3,
      latencyMs: 12.6,
      ttftMs: 4.2,
      isStream: true,
      status: 'client_aborted',
      createdAt: 1_800_000_000,
    });
    expect(usageRecordedV1.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      user_id: 7,
      token_id: 3,
      channel_id: 11,
      group: 'vip',
      cached_tokens: 10,
      latency_ms: 13,
      ttft_ms: 4,
      status: 'client_aborted',
    });
    expect(event.request_id).toHaveLength(128);
    expect(event.token_name).toHaveLength(64);
  });

  it("records a chat service call with no key and the chat's label as the token name", () => {
    const event = usageRecordedEvent({
      eventId: '6f1c1a55-9a3e-4e43-8d55-0c51d2a4a7b2',
      requestId: 'chat-answer-1',
      caller: { token: null, user: aUser(7), group: 'default', label: 'chat #12' },
      channelId: 11,
      model: 'gpt-4o-mini',
      upstreamModel: 'gpt-4o-mini',
      price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
      usage: { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 0 },
      quota: 3,
      latencyMs: 12,
      ttftMs: 4,
      isStream: true,
      status: 'success',
      createdAt: 1_800_000_000,
    });
    expect(usageRecordedV1.parse(event)).toEqual(event);
    expect(event).toMatchObject({ token_id: null, token_name: 'chat #12', request_id: 'chat-answer-1' });
  });

  const anthropicCall = (usage: Parameters<typeof usageRecordedEvent>[0]['usage']) =>
    usageRecordedEvent({
      eventId: '6f1c1a55-9a3e-4e43-8d55-0c51d2a4a7b3',
      requestId: 'req-cache',
      caller: { token: aToken({ id: 3 }), user: aUser(7), group: 'default' },
      channelId: 11,
      model: 'claude-sonnet-4-5',
      upstreamModel: 'claude-sonnet-4-5',
      price: aPriceSnapshotWithCacheWrites(),
      usage,
      quota: 22_050,
      latencyMs: 12,
      ttftMs: null,
      isStream: false,
      status: 'success',
      createdAt: 1_800_000_000,
    });

  it('records the cache writes and the write prices they were charged at', () => {
    const event = anthropicCall(aUsageWithCacheWrites());
    expect(usageRecordedV1.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      cache_write_tokens: 7000,
      cache_write_1h_tokens: 3000,
      price: { cache_write: '3.75', cache_write_1h: '6' },
    });
  });

  it('caps writes beyond what the reads leave of the prompt, as the charge does', () => {
    const event = anthropicCall({
      prompt_tokens: 100,
      completion_tokens: 0,
      cached_tokens: 60,
      cache_write_tokens: 70,
      cache_write_1h_tokens: 90,
    });
    expect(event).toMatchObject({ cache_write_tokens: 40, cache_write_1h_tokens: 40 });
  });

  it('leaves the write fields out of the event of a call that wrote no cache', () => {
    const event = anthropicCall({ prompt_tokens: 100, completion_tokens: 5, cached_tokens: 0 });
    expect(event).not.toHaveProperty('cache_write_tokens');
    expect(event).not.toHaveProperty('cache_write_1h_tokens');
  });
});
