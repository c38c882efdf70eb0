// The suite's verdicts, from what the clients saw and what billing recorded. Pure: no I/O.

/** OpenAI chat completions plain or streamed, Anthropic messages plain or streamed, a web chat message. */
export type CallKind = 'plain' | 'stream' | 'messages' | 'messages-stream' | 'chat';

/** One call as its client saw it. Times are epoch milliseconds. */
export interface CallRecord {
  kind: CallKind;
  /** What the call asked that sets its reservation (`n=2`, `no limit`, `thinking`, …; client-profiles.ts). */
  shape?: string;
  client: string;
  /** The id the client sent as x-request-id, which the gateway keeps and billing logs. */
  requestId: string;
  /**
   * The request id billing logs for the call when it is not the client's: a chat answer is charged
   * as `chat-<chat id>-<answer id>` (the answer's id comes in the stream's `start` event).
   */
  chargeId?: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when no answer came (refused, reset, timed out before the headers). */
  status: number;
  /** Whether any byte of a 200 answer's body arrived (an error status's body is a refusal, not an answer). */
  anyByte: boolean;
  /** 200 and the whole answer arrived (the stream's end marker included). */
  complete: boolean;
  error?: string;
}

/** What billing's usage log holds for one request id. */
export interface UsageCharge {
  rows: number;
  quota: number;
}

/** One fault as the suite applied it. */
export interface FaultWindow {
  name: string;
  injectedAt: number;
  liftedAt: number;
}

export interface FaultResult {
  name: string;
  calls: number;
  /** Answered 200 in full. */
  served: number;
  servedChargedOnce: number;
  servedNotCharged: string[];
  servedChargedTwice: string[];
  /** Refused before any byte: an error status, or no connection. Never to be charged. */
  failedBeforeAnyByte: number;
  /** Of those, 402s: the balance could not pay (the tight-balance client), not the fault. */
  refusedForMoney: number;
  failedButCharged: string[];
  /**
   * Cut in flight before any byte (reset, closed, the client's deadline): relay may have served the
   * upstream by then and charges what was generated, as for any cut call: at most once.
   */
  cutBeforeAnyByte: number;
  cutBeforeAnyByteCharged: number;
  /** Broke off after some bytes: charged for what was generated, at most once. */
  cutMidAnswer: number;
  cutChargedTwice: string[];
  /** Seconds from the fault's end to the end of the first call that started after it and was served; null: none. */
  recoverSeconds: number | null;
  /** Seconds from the fault's start to its end (kill: down time plus restart; freeze: the stop). */
  faultSeconds: number;
  pass: boolean;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The platform answered an error, or nobody took the connection: nothing was served. */
export const refused = (call: CallRecord): boolean =>
  call.status >= 400 || /ECONNREFUSED/.test(call.error ?? '');

/**
 * Splits the calls by the last fault that began before they ended (a call in flight when a fault
 * begins is that fault's); calls that ended before the first fault form the calm window.
 */
export function callsByWindow(calls: CallRecord[], faults: FaultWindow[]): CallRecord[][] {
  const windows: CallRecord[][] = [[], ...faults.map(() => [])];
  for (const call of calls) {
    let index = 0;
    for (let i = 0; i < faults.length; i++) if (call.endedAt >= faults[i]!.injectedAt) index = i + 1;
    windows[index]!.push(call);
  }
  return windows;
}

export function judgeCalls(
  name: string,
  calls: CallRecord[],
  usage: ReadonlyMap<string, UsageCharge>,
  fault?: FaultWindow,
  allCalls: CallRecord[] = calls,
): FaultResult {
  const chargeOf = (call: CallRecord): UsageCharge =>
    usage.get(call.chargeId ?? call.requestId) ?? { rows: 0, quota: 0 };
  const idOf = (call: CallRecord) => call.chargeId ?? call.requestId;
  const served = calls.filter((c) => c.complete);
  const failedEarly = calls.filter((c) => !c.complete && !c.anyByte && refused(c));
  const cutEarly = calls.filter((c) => !c.complete && !c.anyByte && !refused(c));
  const cut = calls.filter((c) => !c.complete && c.anyByte);
  const servedNotCharged = served.filter((c) => chargeOf(c).rows === 0).map(idOf);
  const servedChargedTwice = served.filter((c) => chargeOf(c).rows > 1).map(idOf);
  const failedButCharged = failedEarly.filter((c) => chargeOf(c).quota > 0).map(idOf);
  const cutChargedTwice = [...cut, ...cutEarly].filter((c) => chargeOf(c).rows > 1).map(idOf);
  const recoverSeconds = fault ? timeToRecover(allCalls, fault.liftedAt) : null;
  return {
    name,
    calls: calls.length,
    served: served.length,
    servedChargedOnce: served.length - servedNotCharged.length - servedChargedTwice.length,
    servedNotCharged,
    servedChargedTwice,
    failedBeforeAnyByte: failedEarly.length,
    refusedForMoney: failedEarly.filter((c) => c.status === 402).length,
    failedButCharged,
    cutBeforeAnyByte: cutEarly.length,
    cutBeforeAnyByteCharged: cutEarly.filter((c) => chargeOf(c).quota > 0).length,
    cutMidAnswer: cut.length,
    cutChargedTwice,
    recoverSeconds,
    faultSeconds: fault ? seconds(fault.liftedAt - fault.injectedAt) : 0,
    pass:
      servedNotCharged.length === 0 &&
      servedChargedTwice.length === 0 &&
      failedButCharged.length === 0 &&
      cutChargedTwice.length === 0 &&
      (!fault || recoverSeconds !== null),
  };
}

/** Seconds from `liftedAt` to the end of the first call that started then or later and was served. */
export function timeToRecover(calls: CallRecord[], liftedAt: number): number | null {
  let first: number | undefined;
  for (const call of calls) {
    if (call.complete && call.startedAt >= liftedAt && (first === undefined || call.endedAt < first))
      first = call.endedAt;
  }
  return first === undefined ? null : seconds(first - liftedAt);
}

/** A top-up as the payer saw it: created, then paid at the provider (or not), then notified. */
export interface TopUpRecord {
  paymentId: number;
  userId: number;
  promoCode: string | null;
  /** quota + bonus_quota the creation answered. */
  expectedQuota: number;
  paidAtProvider: boolean;
}

/** The ledger entries of one payment (keys payment:<id>:top_up and :promo_bonus). */
export interface PaymentCredit {
  entries: number;
  quota: number;
}

export interface TopUpResult {
  paid: number;
  creditedOnce: number;
  notCredited: number[];
  creditedTwiceOrWrong: number[];
  unpaidButCredited: number[];
  pass: boolean;
}

export function judgeTopUps(topUps: TopUpRecord[], credits: ReadonlyMap<number, PaymentCredit>): TopUpResult {
  const creditOf = (t: TopUpRecord) => credits.get(t.paymentId) ?? { entries: 0, quota: 0 };
  const paid = topUps.filter((t) => t.paidAtProvider);
  const notCredited = paid.filter((t) => creditOf(t).entries === 0).map((t) => t.paymentId);
  // One top_up entry, plus one promo_bonus entry when the code gave a bonus: the sum is what creation promised.
  const creditedTwiceOrWrong = paid
    .filter((t) => creditOf(t).entries > 0)
    .filter((t) => creditOf(t).quota !== t.expectedQuota || creditOf(t).entries > (t.promoCode ? 2 : 1))
    .map((t) => t.paymentId);
  const unpaidButCredited = topUps
    .filter((t) => !t.paidAtProvider && creditOf(t).entries > 0)
    .map((t) => t.paymentId);
  return {
    paid: paid.length,
    creditedOnce: paid.length - notCredited.length - creditedTwiceOrWrong.length,
    notCredited,
    creditedTwiceOrWrong,
    unpaidButCredited,
    pass: notCredited.length === 0 && creditedTwiceOrWrong.length === 0 && unpaidButCredited.length === 0,
  };
}

export interface BalanceFloorResult {
  /** The largest single call's charge: a balance may end at most this far below zero. */
  oneCall: number;
  below: { userId: number; quota: number }[];
  pass: boolean;
}

export function judgeBalanceFloor(
  balances: { userId: number; quota: number }[],
  largestCallQuota: number,
): BalanceFloorResult {
  const below = balances.filter((b) => b.quota < -largestCallQuota);
  return { oneCall: largestCallQuota, below, pass: below.length === 0 };
}

export interface SettlementResult {
  /** Outbox rows not yet published, per service database. */
  outboxPending: Record<string, number>;
  /** usage.recorded events billing's group has not consumed; null when it could not be read. */
  usageLag: number | null;
  pass: boolean;
}

export function judgeSettlement(
  outboxPending: Record<string, number>,
  usageLag: number | null,
): SettlementResult {
  const pending = Object.values(outboxPending).reduce((a, b) => a + b, 0);
  return { outboxPending, usageLag, pass: pending === 0 && usageLag === 0 };
}

/** One entry of relay's quota store (Redis) still there once every hold has lapsed. */
export interface OutstandingReservation {
  /** `user:<id>` or `token:<id>`. */
  account: string;
  /** The reservation's id: `lease:<replica>:<n>` for a lease, the call's id otherwise. */
  id: string;
  /** When relay took it (its expiry minus the reservation TTL), epoch ms. */
  takenAt: number;
  amount: number;
}

export interface ReservationResult {
  /** Entries still held after the last hold lapsed. */
  outstanding: number;
  /** Of those, held by a relay replica when it was SIGKILLed: they free themselves after the TTL. */
  heldByKilledRelay: number;
  /** The rest: reservations a running relay took and never settled or released. */
  unreleased: OutstandingReservation[];
  pass: boolean;
}

/**
 * Every reservation is settled or released by the relay that took it; only a relay killed outright
 * leaves its open ones behind (the store frees them after the reservation TTL). A lease or call in
 * flight at a kill was taken at most `inFlightMs` before it (the clients' deadline plus a lease period).
 */
export function judgeReservations(
  outstanding: OutstandingReservation[],
  faults: FaultWindow[],
  inFlightMs: number,
): ReservationResult {
  const relayKills = faults.filter((f) => /^kill:(.*\+)?relay-/.test(f.name)).map((f) => f.injectedAt);
  const heldByKilled = (r: OutstandingReservation) =>
    relayKills.some((killedAt) => r.takenAt <= killedAt + 1000 && r.takenAt >= killedAt - inFlightMs);
  const unreleased = outstanding.filter((r) => !heldByKilled(r));
  return {
    outstanding: outstanding.length,
    heldByKilledRelay: outstanding.length - unreleased.length,
    unreleased,
    pass: unreleased.length === 0,
  };
}

/** How the tight-balance client's money went: it is to reach zero during the run, never below one call. */
export interface TightClientResult {
  client: string;
  startQuota: number;
  finalQuota: number;
  served: number;
  /** Answered 402: the balance (less what is held for calls in flight) could not pay the call. */
  refusedForMoney: number;
  /** Seconds from the start of the load to the first 402; null: the balance lasted the whole run. */
  firstRefusalSeconds: number | null;
}

export function summarizeTightClient(
  calls: CallRecord[],
  client: string,
  startQuota: number,
  finalQuota: number,
  loadStartedAt: number,
): TightClientResult {
  const own = calls.filter((c) => c.client === client);
  const refusals = own.filter((c) => c.status === 402);
  const first = refusals.reduce<number | null>(
    (min, c) => (min === null || c.endedAt < min ? c.endedAt : min),
    null,
  );
  return {
    client,
    startQuota,
    finalQuota,
    served: own.filter((c) => c.complete).length,
    refusedForMoney: refusals.length,
    firstRefusalSeconds: first === null ? null : seconds(first - loadStartedAt),
  };
}
