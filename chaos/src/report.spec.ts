import {
  judgeBalanceFloor,
  judgeCalls,
  judgeReservations,
  judgeSettlement,
  judgeTopUps,
  summarizeTightClient,
  type CallRecord,
} from './checks';
import { byKind, faultTable, renderReport, verdict, type ChaosRun } from './report';

const served = (requestId: string, startedAt: number): CallRecord => ({
  kind: 'stream',
  client: 'c1',
  requestId,
  startedAt,
  endedAt: startedAt + 500,
  status: 200,
  anyByte: true,
  complete: true,
});

function aRun(usageRows: number): ChaosRun {
  const fault = { name: 'kill:relay-1', injectedAt: 1000, liftedAt: 2000 };
  const calls = [served('calm-1', 0), served('after', 2500)];
  const usage = new Map([
    ['calm-1', { rows: 1, quota: 10 }],
    ['after', { rows: usageRows, quota: 10 * usageRows }],
  ]);
  return {
    runId: 'r1',
    command: 'npm run chaos -- --quick',
    startedAt: new Date(0),
    finishedAt: new Date(60_000),
    machine: '2 cores',
    calm: judgeCalls('calm', [calls[0]!], usage),
    faults: [{ ...judgeCalls(fault.name, [calls[1]!], usage, fault, calls), problems: [] }],
    topUps: judgeTopUps([], new Map()),
    ledgerAudit: { clean: true, mismatched: 0 },
    balanceFloor: judgeBalanceFloor([{ userId: 1, quota: 5 }], 10),
    settlement: judgeSettlement({ billing: 0 }, 0),
    reservations: judgeReservations([], [fault], 20_000),
    tightClient: summarizeTightClient(calls, 'tight', 20_000, 0, 0),
    calls,
    notes: [],
  };
}

describe('chaos report', () => {
  it('shows each fault with its figures and time to recover', () => {
    const table = faultTable(aRun(1));
    expect(table).toContain('| calm | — | 1 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | — | yes |');
    expect(table).toContain('| kill:relay-1 | 1 | 1 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | yes |');
  });

  it('passes a clean run and fails one with a double charge, naming the call', () => {
    expect(verdict(aRun(1))).toBe(true);
    const doubled = aRun(2);
    expect(verdict(doubled)).toBe(false);
    const report = renderReport(doubled);
    expect(report).toContain('Verdict: **FAIL**');
    expect(report).toContain('kill:relay-1: served and charged twice (after)');
  });

  it('fails a run whose fault could not be lifted cleanly', () => {
    const run = aRun(1);
    run.faults[0]!.problems.push('restart relay-1: not ready');
    expect(verdict(run)).toBe(false);
    expect(renderReport(run)).toContain('- kill:relay-1: restart relay-1: not ready');
  });

  it('fails a run that left a reservation in relay’s store, naming it', () => {
    const run = aRun(1);
    run.reservations = judgeReservations(
      [{ account: 'user:7', id: 'lease:abc:3', takenAt: 50_000, amount: 1234 }],
      [{ name: 'kill:relay-1', injectedAt: 1000, liftedAt: 2000 }],
      20_000,
    );
    expect(verdict(run)).toBe(false);
    expect(renderReport(run)).toContain(
      '1 left, 0 of them held by a relay when it was killed (freed after the TTL) (user:7 lease:abc:3 1234)',
    );
  });

  it('counts the load by kind and by what each call’s reservation covers', () => {
    const refused402 = { status: 402, anyByte: false, complete: false, error: 'Insufficient balance' };
    const table = byKind([
      { ...served('a', 0), kind: 'plain', shape: 'n=2' },
      { ...served('b', 0), kind: 'plain', shape: 'n=2', ...refused402 },
      { ...served('c', 0), kind: 'messages-stream', shape: 'thinking' },
    ]);
    expect(table).toContain('| plain | n=2 | 2 | 1 | 1 | 1 | 0 |');
    expect(table).toContain('| messages-stream | thinking | 1 | 1 | 0 | 0 | 0 |');
  });
});
