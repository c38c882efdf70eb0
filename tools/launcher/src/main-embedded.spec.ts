import { setFlagsFromString } from 'node:v8';
import { NO_PRETENURING_FLAG } from '@tollgate/runtime/main';

// The process's V8 flags are not this suite's to change.
jest.mock('node:v8', () => ({ ...jest.requireActual<object>('node:v8'), setFlagsFromString: jest.fn() }));

// The V8 flags set by the time the platform's code (gateway, relay and the rest) is loaded.
let mockFlagsWhenPlatformLoaded: unknown[][] | undefined;
const mockStartEmbedded = jest.fn(async () => ({ url: 'http://127.0.0.1:1', close: async () => {} }));
jest.mock('./embedded', () => {
  mockFlagsWhenPlatformLoaded = [
    ...jest.mocked(jest.requireMock<typeof import('node:v8')>('node:v8').setFlagsFromString).mock.calls,
  ];
  return { startEmbedded: mockStartEmbedded };
});

describe('main-embedded', () => {
  it("turns V8's allocation-site pretenuring off before the platform's code loads", async () => {
    const signalHandlers = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const log = jest.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await import('./main-embedded');
      await new Promise<void>((resolve) => {
        const poll = () => (log.mock.calls.length ? resolve() : setImmediate(poll));
        poll();
      });
    } finally {
      log.mockRestore();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const handler of process.listeners(signal)) {
          if (!signalHandlers[signal].includes(handler)) process.removeListener(signal, handler);
        }
      }
    }
    expect(mockStartEmbedded).toHaveBeenCalledTimes(1);
    expect(mockFlagsWhenPlatformLoaded).toContainEqual([NO_PRETENURING_FLAG]);
    expect(jest.mocked(setFlagsFromString).mock.calls[0]).toEqual([NO_PRETENURING_FLAG]);
  });
});
