/**
 * kafkajs 2.2.4 (its last release) keeps a timer loop running on every broker connection once it has
 * sent a request: with nothing pending, `scheduleCheckPendingRequests` sets a timeout with a negative
 * delay, whose callback schedules it again (tulios/kafkajs#1556, fix proposed in #1667, never
 * released). Each idle service woke about 1,600 times a second and spent 5–8 % of a core on it, time
 * taken from the hot path on a shared machine. This replaces the method with the proposed fix: a
 * check is scheduled only while requests are pending (at the end of a throttle, else after 10 ms, as
 * kafkajs does); with none pending, the next request's push schedules one again.
 *
 * The same queue also keeps an interval of its own from connect to disconnect that looks for requests
 * past their timeout every 100 ms: ten wake-ups a second per broker connection whether anything is in
 * flight or not, about 220 a second for an idle relay (epoll waits with nothing to read, counted with
 * strace). One interval per process, once a second, now looks at every connected queue: a request
 * times out at most a second later than its `requestTimeout` (30 s by default, more for fetches).
 */

interface InflightRequest {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, InflightRequest>;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  enforceRequestTimeout: boolean;
  isConnected(): boolean;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  destroy(): void;
}

/** kafkajs' own interval between checks of a queue held back by its in-flight limit. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;
export const PATCHED_KAFKAJS_VERSION = '2.2.4';

function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttleLeft = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    throttleLeft > 0 ? throttleLeft : CHECK_PENDING_REQUESTS_INTERVAL_MS,
  );
}

/** How often the one timer looks for requests past their timeout, on every connected queue. */
export const REQUEST_TIMEOUT_CHECK_MS = 1_000;
const watchedQueues = new Set<RequestQueueInternals>();
let timeoutCheck: NodeJS.Timeout | undefined;

function checkRequestTimeouts(): void {
  const now = Date.now();
  for (const queue of watchedQueues) {
    for (const request of queue.inflight.values()) {
      if (now - request.sentAt > request.requestTimeout) request.timeoutRequest();
    }
    if (!queue.isConnected()) queue.destroy();
  }
}

function scheduleRequestTimeoutCheck(this: RequestQueueInternals): void {
  if (!this.enforceRequestTimeout) return;
  this.destroy();
  watchedQueues.add(this);
  timeoutCheck ??= setInterval(checkRequestTimeouts, REQUEST_TIMEOUT_CHECK_MS);
}

function destroyWith(destroy: () => void) {
  return function (this: RequestQueueInternals): void {
    destroy.call(this);
    watchedQueues.delete(this);
    if (watchedQueues.size === 0 && timeoutCheck !== undefined) {
      clearInterval(timeoutCheck);
      timeoutCheck = undefined;
    }
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs ships no types for its internals */
let installed = false;

/** Installs both fixes once; returns false (and changes nothing) on a kafkajs other than the patched one. */
export function fixKafkajsIdleTimer(): boolean {
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_KAFKAJS_VERSION) return false;
  const RequestQueue = require('kafkajs/src/network/requestQueue') as {
    prototype: RequestQueueInternals;
  };
  if (installed) return true;
  installed = true;
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  RequestQueue.prototype.scheduleRequestTimeoutCheck = scheduleRequestTimeoutCheck;
  RequestQueue.prototype.destroy = destroyWith(RequestQueue.prototype.destroy);
  return true;
}
/* eslint-enable @typescript-eslint/no-require-imports */
