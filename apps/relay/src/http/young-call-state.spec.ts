import { setFlagsFromString } from 'node:v8';
import { NO_PRETENURING_FLAG } from '@tollgate/runtime/main';
import { composeUpstream } from '../composition';
import type { RelayConfig } from '../config';

// The process's V8 flags are not this suite's to change (libs/runtime's young-call-state.spec.ts
// checks V8's behaviour in child processes).
jest.mock('node:v8', () => ({ ...jest.requireActual<object>('node:v8'), setFlagsFromString: jest.fn() }));

describe('relay and V8 allocation-site pretenuring', () => {
  it('turns it off when the relay composes its upstream, before read models and calls', () => {
    const upstream = composeUpstream({
      RELAY_UPSTREAM_CONNECTIONS: 4,
      RELAY_UPSTREAM_HEADERS_TIMEOUT_MS: 1000,
      RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS: 1000,
      TOLLGATE_ENCRYPTION_KEY: 'ab'.repeat(32),
    } as RelayConfig);
    expect(jest.mocked(setFlagsFromString).mock.calls).toEqual([[NO_PRETENURING_FLAG]]);
    return upstream.client.close();
  });
});
