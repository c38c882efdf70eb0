/**
 * Two changes to how a kafkajs 2.2.4 consumer (its last release) fetches, so that an idle consumer can
 * wait long on the broker:
 *
 * - **A stop does not wait out the fetch in flight.** kafkajs's `stop()`/`disconnect()` let a long
 *   poll run to its end (up to `maxWaitTimeInMs`), which is why idle fetches were kept short. Here a
 *   stop answers the fetch in flight with no batches at once and drops the request from its connection
 *   (the fetch connection, which carries nothing else): kafkajs then goes on as after an empty fetch —
 *   the batch being handled finishes and is committed by its handler, the member leaves its group, the
 *   connections close. Nothing fetched but not handled is committed, so the group's next member reads it.
 * - **A batching group waits long only while idle.** A group registered with `paceIdleFetches` fetches
 *   with its batching (`minBytes`, a short `maxWaitTimeInMs`) while records flow, and after a fetch that
 *   came back empty with `minBytes` 1 and the longer idle wait: the broker answers on the first record,
 *   the next fetch gathers again. Without it a group gathering for 100 ms made ten empty fetches a second.
 *
 * A fetch that had already begun when the stop came, but had not reached the broker yet (it was reading
 * metadata or offsets), is still waited out: a stop then takes as long as it did before.
 */

interface RequestQueueInternals {
  inflight: Map<number, unknown>;
  pending: unknown[];
}

interface ConnectionInternals {
  requestQueue: RequestQueueInternals;
  rejectRequests(error: Error): void;
  socket?: { destroy(): void };
}

interface ConsumerGroupInternals {
  groupId: string;
  minBytes: number;
  maxWaitTime: number;
  cluster: {
    brokerPool: { brokers: Record<string, { connectionPool?: { pool: ConnectionInternals[] } }> };
  };
  fetch(nodeId: number): Promise<BatchInternals[]>;
}

/** kafkajs answers one batch per partition fetched, records or not. */
interface BatchInternals {
  isEmpty(): boolean;
}

interface RunnerInternals {
  running: boolean;
  consumerGroup: ConsumerGroupInternals | undefined;
  stop(): Promise<void>;
}

export const PATCHED_KAFKAJS_VERSION = '2.2.4';
/** kafkajs's ConnectionPool sends Fetch requests, and only those, on its second connection. */
const FETCH_CONNECTION = 1;

export interface IdleFetchPacing {
  /** How long a fetch after an empty one waits for the first record. */
  idleWaitMs: number;
}

/** Groups whose consumers batch, by group id: all members of a group fetch alike. */
const pacedGroups = new Map<string, { pacing: IdleFetchPacing; members: number }>();

/**
 * Lets a batching group's idle fetches wait `idleWaitMs` for the first record instead of its batching
 * wait. Returns the call that undoes it (once every member of the process registered alike did).
 */
export function paceIdleFetches(groupId: string, pacing: IdleFetchPacing): () => void {
  const entry = pacedGroups.get(groupId);
  if (entry) {
    entry.pacing = pacing;
    entry.members += 1;
  } else {
    pacedGroups.set(groupId, { pacing, members: 1 });
  }
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    const current = pacedGroups.get(groupId);
    if (current && --current.members === 0) pacedGroups.delete(groupId);
  };
}

interface GroupFetchState {
  stopped: boolean;
  /** Answer the fetches in flight with no batches. */
  onStop: Set<() => void>;
  /** The group's batching, read from kafkajs's fields before the first fetch changed them. */
  busy?: { minBytes: number; maxWaitTime: number };
  lastWasEmpty: boolean;
}

const states = new WeakMap<ConsumerGroupInternals, GroupFetchState>();

function stateOf(group: ConsumerGroupInternals): GroupFetchState {
  let state = states.get(group);
  if (!state) states.set(group, (state = { stopped: false, onStop: new Set(), lastWasEmpty: false }));
  return state;
}

/** The fetch, paced and answerable by a stop; `fetch` is kafkajs's own. */
export function controlledFetch(
  fetch: (this: ConsumerGroupInternals, nodeId: number) => Promise<BatchInternals[]>,
): (this: ConsumerGroupInternals, nodeId: number) => Promise<BatchInternals[]> {
  return function (this: ConsumerGroupInternals, nodeId: number): Promise<BatchInternals[]> {
    const state = stateOf(this);
    if (state.stopped) return Promise.resolve([]);
    pace(this, state);
    const fetching = fetch.call(this, nodeId).then((batches) => {
      state.lastWasEmpty = batches.every((batch) => batch.isEmpty());
      return batches;
    });
    let answer: () => void = () => undefined;
    const stopped = new Promise<BatchInternals[]>((resolve) => (answer = () => resolve([])));
    state.onStop.add(answer);
    // A fetch the stop answered settles later, rejected by interruptFetches: the race has handled it.
    return Promise.race([fetching, stopped]).finally(() => state.onStop.delete(answer));
  };
}

function pace(group: ConsumerGroupInternals, state: GroupFetchState): void {
  const pacing = pacedGroups.get(group.groupId)?.pacing;
  if (!pacing) return;
  state.busy ??= { minBytes: group.minBytes, maxWaitTime: group.maxWaitTime };
  if (state.lastWasEmpty) {
    group.minBytes = 1;
    group.maxWaitTime = Math.max(pacing.idleWaitMs, state.busy.maxWaitTime);
  } else {
    group.minBytes = state.busy.minBytes;
    group.maxWaitTime = state.busy.maxWaitTime;
  }
}

/** Answers the group's fetches in flight with no batches and drops their requests. */
export function interruptFetches(group: ConsumerGroupInternals): void {
  const state = stateOf(group);
  state.stopped = true;
  state.onStop.forEach((answer) => answer());
  for (const broker of Object.values(group.cluster.brokerPool.brokers)) {
    const connection = broker.connectionPool?.pool[FETCH_CONNECTION];
    if (!connection) continue;
    const { inflight, pending } = connection.requestQueue;
    if (inflight.size === 0 && pending.length === 0) continue;
    // Rejected, the requests no longer hold kafkajs's disconnect back; the socket goes too, so that
    // the broker's late answer is not read as a response nobody asked for.
    connection.rejectRequests(new Error('kafkajs fetch interrupted: the consumer is stopping'));
    connection.socket?.destroy();
  }
}

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs ships no types for its internals */
let installed = false;
/** Installs both changes once; returns false (and changes nothing) on a kafkajs other than the patched one. */
export function controlKafkajsFetches(): boolean {
  if (installed) return true;
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_KAFKAJS_VERSION) return false;
  const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as {
    prototype: ConsumerGroupInternals;
  };
  const Runner = require('kafkajs/src/consumer/runner') as { prototype: RunnerInternals };
  ConsumerGroup.prototype.fetch = controlledFetch(ConsumerGroup.prototype.fetch);
  const stop = Runner.prototype.stop;
  Runner.prototype.stop = function (this: RunnerInternals): Promise<void> {
    const wasRunning = this.running;
    // kafkajs's stop marks the runner and its fetchers stopped before its first await, so that no new
    // fetch starts once the one in flight is answered.
    const stopping = stop.call(this);
    if (wasRunning && this.consumerGroup) interruptFetches(this.consumerGroup);
    return stopping;
  };
  installed = true;
  return true;
}
/* eslint-enable @typescript-eslint/no-require-imports */
