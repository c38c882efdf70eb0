/**
 * kafkajs 2.2.4 (its last release) keeps a timer loop running on every broker connection once it has
 * sent a request: with nothing pending, `scheduleCheckPendingRequests` sets a timeout with a negative
 * delay, whose callback schedules it again (tulios/kafkajs#1556, fix proposed in #1667, never
 * released). Each idle service woke about 1,600 times a second and spent 5–8 % of a core on it, time
 * taken from the hot path on a shared machine. This replaces the method with the proposed fix: a
 * check is scheduled only while requests are pending (at the end of a throttle, else after 10 ms, as
 * kafkajs does); with none pending, the next request's push schedules one again.
 */

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
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

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs ships no types for its internals */
/** Installs the fix once; returns false (and changes nothing) on a kafkajs other than the patched one. */
export function fixKafkajsIdleTimer(): boolean {
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_KAFKAJS_VERSION) return false;
  const RequestQueue = require('kafkajs/src/network/requestQueue') as {
    prototype: RequestQueueInternals;
  };
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}
/* eslint-enable @typescript-eslint/no-require-imports */
