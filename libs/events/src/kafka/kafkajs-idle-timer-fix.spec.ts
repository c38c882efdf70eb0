import { fixKafkajsIdleTimer, REQUEST_TIMEOUT_CHECK_MS } from './kafkajs-idle-timer-fix';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal class the fix replaces a method of
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => {
  pending: unknown[];
  inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }>;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  checkPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  destroy(): void;
};

const silentLogger = {
  debug: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  info: () => undefined,
};
const aQueue = ({
  enforceRequestTimeout = false,
  isConnected = (): boolean => true,
}: { enforceRequestTimeout?: boolean; isConnected?: () => boolean } = {}) =>
  new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout,
    isConnected,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: silentLogger,
  });
const inflightRequest = (sentAt: number) => ({ sentAt, requestTimeout: 30_000, timeoutRequest: jest.fn() });

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

  it('shows the other timer it replaces: every connected queue checks for timeouts 10 times a second', () => {
    const queue = aQueue({ enforceRequestTimeout: true });
    queue.scheduleRequestTimeoutCheck();
    expect(queue.requestTimeoutIntervalId).toBeDefined();
    expect(jest.getTimerCount()).toBe(1);
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

    it('checks every connected queue from one timer, once a second', () => {
      const queues = [aQueue({ enforceRequestTimeout: true }), aQueue({ enforceRequestTimeout: true })];
      for (const queue of queues) queue.scheduleRequestTimeoutCheck();
      expect(jest.getTimerCount()).toBe(1);
      const late = inflightRequest(Date.now());
      const onTime = inflightRequest(Date.now() + 5_000);
      queues[0]!.inflight.set(1, late);
      queues[1]!.inflight.set(2, onTime);
      jest.advanceTimersByTime(30_000 + REQUEST_TIMEOUT_CHECK_MS);
      expect(late.timeoutRequest).toHaveBeenCalled();
      expect(onTime.timeoutRequest).not.toHaveBeenCalled();
      jest.advanceTimersByTime(5_000);
      expect(onTime.timeoutRequest).toHaveBeenCalled();
      for (const queue of queues) queue.destroy();
      expect(jest.getTimerCount()).toBe(0);
    });

    it('lets go of a queue whose connection closed, and of the timer with the last queue', () => {
      let connected = true;
      const queue = aQueue({ enforceRequestTimeout: true, isConnected: () => connected });
      queue.scheduleRequestTimeoutCheck();
      connected = false;
      jest.advanceTimersByTime(REQUEST_TIMEOUT_CHECK_MS);
      expect(jest.getTimerCount()).toBe(0);
    });

    it('keeps no timer where request timeouts are not enforced', () => {
      aQueue().scheduleRequestTimeoutCheck();
      expect(jest.getTimerCount()).toBe(0);
    });
  });
});
