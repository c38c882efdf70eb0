import { CHANNEL_TEST_ERROR_MAX_LENGTH } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import type { AdminConfig } from '../config';
import { heldChannelsOf, RelayChannelBreakers } from './relay-channel-breakers';
import { testErrorOf } from './channels.service';

const result = (success: boolean, message: string) => ({
  success,
  message,
  time_ms: 2,
  model: 'gpt-4o-mini',
});

describe("a channel's last test error", () => {
  it("is null after a passing test and relay's message, on one line, after a failing one", () => {
    expect(testErrorOf(result(true, 'ok'))).toBeNull();
    expect(testErrorOf(result(false, 'HTTP 500 Internal Server Error:\n  upstream\tdown '))).toBe(
      'HTTP 500 Internal Server Error:   upstream down',
    );
    expect(testErrorOf(result(false, ''))).toBe('Test failed');
  });

  it('is cut short', () => {
    const error = testErrorOf(result(false, `HTTP 400 Bad Request: ${'x'.repeat(2000)}`))!;
    expect(error).toHaveLength(CHANNEL_TEST_ERROR_MAX_LENGTH);
    expect(error.endsWith('…')).toBe(true);
  });
});

describe("relay's breakers in the channel list", () => {
  it('keys the held channels by id, next trial as until', () => {
    const held = heldChannelsOf({
      channels: [
        { id: 3, state: 'open', next_trial_at: 1_767_003_120 },
        { id: 5, state: 'half_open', next_trial_at: null },
      ],
    });
    expect(held.get(3)).toEqual({ state: 'open', until: 1_767_003_120 });
    expect(held.get(5)).toEqual({ state: 'half_open', until: null });
    expect(held.get(4)).toBeUndefined();
  });

  afterEach(() => jest.restoreAllMocks());

  it('gives none while relay cannot be reached, with one warning per outage', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    const warn = jest.fn();
    const logger = { warn, info: jest.fn() } as unknown as Logger;
    const config = { RELAY_URL: 'http://127.0.0.1:1', TOLLGATE_INTERNAL_TOKEN_SECRET: 'x'.repeat(64) };
    const breakers = new RelayChannelBreakers(config as AdminConfig, logger);
    expect((await breakers.held()).size).toBe(0);
    expect((await breakers.held()).size).toBe(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(globalThis.fetch).toHaveBeenCalledTimes(2);
  });
});
