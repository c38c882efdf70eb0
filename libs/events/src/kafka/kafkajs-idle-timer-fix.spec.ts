import { fixKafkajsIdleTimer } from './kafkajs-idle-timer-fix';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal class the fix replaces a method of
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  destroy(): void;
};

const silentLogger = {
  debug: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  info: () => undefined,
};
const aQueue = () =>
  new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: silentLogger,
  });

describe('fixKafkajsIdleTimer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows the bug it fixes: an idle kafkajs queue re-arms a timer forever', () => {
    const queue = aQueue();
    queue.checkPendingRequests();
    jest.advanceTimersByTime(100);
    // Still re-arming itself after 100 ms with nothing to do.
    expect(queue.throttleCheckTimeoutId).not.toBeNull();
    queue.destroy();
  });

  describe('once installed', () => {
    beforeAll(() => expect(fixKafkajsIdleTimer()).toBe(true));

    it('keeps no timer for a queue with nothing pending', () => {
      const queue = aQueue();
      queue.checkPendingRequests();
      expect(queue.throttleCheckTimeoutId).toBeNull();
      queue.destroy();
    });

    it('still checks a pending request again once a throttle ends', () => {
      const queue = aQueue();
      const send = jest.fn();
      queue.throttledUntil = Date.now() + 500;
      queue.pending.push({
        send,
        completed: () => undefined,
        expectResponse: false,
        correlationId: 1,
        pendingDuration: 0,
      });
      queue.checkPendingRequests();
      expect(send).not.toHaveBeenCalled();
      expect(queue.throttleCheckTimeoutId).not.toBeNull();
      jest.advanceTimersByTime(500);
      expect(send).toHaveBeenCalledTimes(1);
      expect(queue.throttleCheckTimeoutId).toBeNull();
      queue.destroy();
    });
  });
});
