import {
  callsByWindow,
  judgeBalanceFloor,
  judgeCalls,
  judgeReservations,
  judgeSettlement,
  judgeTopUps,
  summarizeTightClient,
  timeToRecover,
  type CallRecord,
  type UsageCharge,
} from './checks';

const call = (requestId: string, startedAt: number, over: Partial<CallRecord> = {}): CallRecord => ({
  kind: 'plain',
  client: 'c1',
  requestId,
  startedAt,
  endedAt: startedAt + 100,
  status: 200,
  anyByte: true,
  complete: true,
  ...over,
});
const failedEarly = {
  status: 502,
  anyByte: false,
  complete: false,
  error: 'The relay service is unavailable',
};
const cutEarly = { status: 0, anyByte: false, complete: false, error: 'other side closed' };
const cutMidway = { status: 200, anyByte: true, complete: false, error: 'terminated' };

describe('chaos checks', () => {
  it('puts each call in the window of the fault in force when it started', () => {
    const faults = [
      { name: 'kill:relay-1', injectedAt: 1000, liftedAt: 1500 },
      { name: 'kill:redis', injectedAt: 3000, liftedAt: 3500 },
    ];
    // call() ends 100 ms after it starts: 'c' is still in flight when the second fault begins.
    const windows = callsByWindow(
      [call('a', 10), call('b', 1000), call('c', 2950), call('d', 3000), call('e', 2800)],
      faults,
    );
    expect(windows.map((w) => w.map((c) => c.requestId))).toEqual([['a'], ['b', 'e'], ['c', 'd']]);
  });

  it('passes a window whose served calls were charged once and whose early failures were not charged', () => {
    const usage = new Map<string, UsageCharge>([
      ['a', { rows: 1, quota: 30 }],
      ['cut', { rows: 1, quota: 10 }],
    ]);
    const result = judgeCalls(
      'calm',
      [
        call('a', 0),
        call('early', 0, failedEarly),
        call('cut', 0, cutMidway),
        call('no-money', 0, { status: 402, anyByte: false, complete: false, error: 'Insufficient balance' }),
      ],
      usage,
    );
    expect(result).toMatchObject({
      calls: 4,
      served: 1,
      servedChargedOnce: 1,
      failedBeforeAnyByte: 2,
      refusedForMoney: 1,
      cutMidAnswer: 1,
      pass: true,
    });
  });

  it('fails a window with a served call not charged, one charged twice, and an early failure charged', () => {
    const usage = new Map<string, UsageCharge>([
      ['twice', { rows: 2, quota: 60 }],
      ['early', { rows: 1, quota: 30 }],
    ]);
    const result = judgeCalls(
      'kill:kafka',
      [call('lost', 0), call('twice', 0), call('early', 0, failedEarly)],
      usage,
    );
    expect(result.servedNotCharged).toEqual(['lost']);
    expect(result.servedChargedTwice).toEqual(['twice']);
    expect(result.failedButCharged).toEqual(['early']);
    expect(result.servedChargedOnce).toBe(0);
    expect(result.pass).toBe(false);
  });

  it('matches a call to its charge by the id billing logs when that is not the client’s (a chat answer)', () => {
    const usage = new Map<string, UsageCharge>([['chat-4-17', { rows: 1, quota: 12 }]]);
    const chat = call('chaos-client-id', 0, { kind: 'chat', chargeId: 'chat-4-17' });
    expect(judgeCalls('calm', [chat], usage)).toMatchObject({ servedChargedOnce: 1, pass: true });
  });

  it('allows a call cut in flight before any byte to be charged once, not twice', () => {
    const usage = new Map<string, UsageCharge>([
      ['once', { rows: 1, quota: 20 }],
      ['twice', { rows: 2, quota: 40 }],
    ]);
    const once = judgeCalls('kill:gateway', [call('once', 0, cutEarly)], usage);
    expect(once).toMatchObject({
      cutBeforeAnyByte: 1,
      cutBeforeAnyByteCharged: 1,
      failedBeforeAnyByte: 0,
      pass: true,
    });
    expect(judgeCalls('kill:gateway', [call('twice', 0, cutEarly)], usage).pass).toBe(false);
  });

  it('counts a refused connection as a failure that must not be charged', () => {
    const usage = new Map<string, UsageCharge>([['x', { rows: 1, quota: 20 }]]);
    const refusedCall = call('x', 0, {
      status: 0,
      anyByte: false,
      complete: false,
      error: 'connect ECONNREFUSED 127.0.0.1:1',
    });
    expect(judgeCalls('kill:gateway', [refusedCall], usage).failedButCharged).toEqual(['x']);
  });

  it('does not count an early failure logged with quota 0 as a charge', () => {
    const usage = new Map<string, UsageCharge>([['early', { rows: 1, quota: 0 }]]);
    expect(judgeCalls('w', [call('early', 0, failedEarly)], usage).failedButCharged).toEqual([]);
  });

  it('measures recovery to the end of the first call started after the fault that was served', () => {
    const calls = [
      call('before', 900, { endedAt: 2100 }),
      call('failed', 2000, { ...failedEarly, endedAt: 2050 }),
      call('late', 2500, { endedAt: 3700 }),
      call('first', 2200, { endedAt: 3400 }),
    ];
    expect(timeToRecover(calls, 2000)).toBe(1.4);
    expect(timeToRecover(calls, 5000)).toBeNull();
  });

  it('fails a fault after which no call was served', () => {
    const fault = { name: 'kill:postgres', injectedAt: 0, liftedAt: 1000 };
    const result = judgeCalls(fault.name, [call('x', 10, failedEarly)], new Map(), fault);
    expect(result.recoverSeconds).toBeNull();
    expect(result.faultSeconds).toBe(1);
    expect(result.pass).toBe(false);
  });

  it('checks that every paid top-up is credited once with its bonus, and no abandoned one is', () => {
    const topUps = [
      { paymentId: 1, userId: 7, promoCode: null, expectedQuota: 555_555, paidAtProvider: true },
      { paymentId: 2, userId: 7, promoCode: 'CHAOS10', expectedQuota: 611_110, paidAtProvider: true },
      { paymentId: 3, userId: 7, promoCode: null, expectedQuota: 555_555, paidAtProvider: true },
      { paymentId: 4, userId: 7, promoCode: null, expectedQuota: 555_555, paidAtProvider: true },
      { paymentId: 5, userId: 7, promoCode: null, expectedQuota: 555_555, paidAtProvider: false },
    ];
    const credits = new Map([
      [1, { entries: 1, quota: 555_555 }],
      [2, { entries: 2, quota: 611_110 }],
      [4, { entries: 2, quota: 1_111_110 }],
      [5, { entries: 1, quota: 555_555 }],
    ]);
    expect(judgeTopUps(topUps, credits)).toEqual({
      paid: 4,
      creditedOnce: 2,
      notCredited: [3],
      creditedTwiceOrWrong: [4],
      unpaidButCredited: [5],
      pass: false,
    });
    expect(judgeTopUps(topUps.slice(0, 2), credits).pass).toBe(true);
  });

  it('allows a balance down to minus one call, not below', () => {
    expect(judgeBalanceFloor([{ userId: 1, quota: -40 }], 40).pass).toBe(true);
    expect(judgeBalanceFloor([{ userId: 1, quota: -41 }], 40)).toEqual({
      oneCall: 40,
      below: [{ userId: 1, quota: -41 }],
      pass: false,
    });
  });

  it('calls the events settled only with empty outboxes and no consumer lag', () => {
    expect(judgeSettlement({ auth: 0, billing: 0 }, 0).pass).toBe(true);
    expect(judgeSettlement({ auth: 1, billing: 0 }, 0).pass).toBe(false);
    expect(judgeSettlement({ auth: 0 }, 3).pass).toBe(false);
    expect(judgeSettlement({ auth: 0 }, null).pass).toBe(false);
  });

  describe('reservations left in relay’s store', () => {
    const kills = [
      { name: 'kill:relay-1', injectedAt: 100_000, liftedAt: 110_000 },
      { name: 'freeze:relay-1', injectedAt: 200_000, liftedAt: 232_000 },
      { name: 'kill:relay-1+billing-1', injectedAt: 300_000, liftedAt: 330_000 },
    ];
    const entry = (id: string, takenAt: number) => ({ account: 'user:3', id, takenAt, amount: 500 });

    it('excuses only what a relay held when it was killed', () => {
      const result = judgeReservations(
        [entry('lease:a:1', 99_000), entry('lease:b:1', 299_500), entry('lease:c:4', 150_000)],
        kills,
        21_000,
      );
      expect(result).toMatchObject({ outstanding: 3, heldByKilledRelay: 2, pass: false });
      expect(result.unreleased.map((r) => r.id)).toEqual(['lease:c:4']);
    });

    it('does not excuse a reservation taken during a freeze or long before a kill', () => {
      const result = judgeReservations(
        [entry('lease:d:1', 210_000), entry('lease:e:1', 70_000)],
        kills,
        21_000,
      );
      expect(result.unreleased).toHaveLength(2);
    });

    it('passes an empty store', () => {
      expect(judgeReservations([], kills, 21_000)).toMatchObject({ outstanding: 0, pass: true });
    });
  });

  it('tells when the tight-balance client was first refused for money', () => {
    const summary = summarizeTightClient(
      [
        call('a', 1000, { client: 'tight' }),
        call('b', 5000, { client: 'tight', status: 402, anyByte: false, complete: false }),
        call('c', 9000, { client: 'tight', status: 402, anyByte: false, complete: false }),
        call('d', 2000, { client: 'other', status: 402, anyByte: false, complete: false }),
      ],
      'tight',
      20_000,
      12,
      0,
    );
    expect(summary).toEqual({
      client: 'tight',
      startQuota: 20_000,
      finalQuota: 12,
      served: 1,
      refusedForMoney: 2,
      firstRefusalSeconds: 5.1,
    });
  });
});
