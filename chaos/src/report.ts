// REPORT.md of one chaos run. Pure: the run's figures in, Markdown out.
import type {
  BalanceFloorResult,
  CallRecord,
  FaultResult,
  ReservationResult,
  SettlementResult,
  TightClientResult,
  TopUpResult,
} from './checks';

export interface ChaosRun {
  runId: string;
  command: string;
  startedAt: Date;
  finishedAt: Date;
  machine: string;
  calm: FaultResult;
  faults: (FaultResult & { problems: string[] })[];
  topUps: TopUpResult;
  ledgerAudit: { clean: boolean; mismatched: number };
  balanceFloor: BalanceFloorResult;
  settlement: SettlementResult;
  reservations: ReservationResult;
  tightClient: TightClientResult;
  calls: CallRecord[];
  notes: string[];
}

const yes = (ok: boolean) => (ok ? 'yes' : '**NO**');
const list = (ids: (string | number)[], max = 5) =>
  ids.length === 0 ? '' : ` (${ids.slice(0, max).join(', ')}${ids.length > max ? ', …' : ''})`;

export function verdict(
  run: Pick<
    ChaosRun,
    'calm' | 'faults' | 'topUps' | 'ledgerAudit' | 'balanceFloor' | 'settlement' | 'reservations'
  >,
): boolean {
  return (
    run.calm.pass &&
    run.faults.every((f) => f.pass && f.problems.length === 0) &&
    run.topUps.pass &&
    run.ledgerAudit.clean &&
    run.balanceFloor.pass &&
    run.settlement.pass &&
    run.reservations.pass
  );
}

/** The per-fault table: also what docs/reliability.md quotes. */
export function faultTable(run: Pick<ChaosRun, 'calm' | 'faults'>): string {
  const header = [
    '| fault | fault s | calls | served 200 | charged once | 200 not charged | 200 charged twice | refused before any byte | of those 402 | of those charged | cut before any byte | of those charged (≤ once) | cut mid-answer | recover s | pass |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const row = (f: FaultResult & { problems?: string[] }) =>
    `| ${f.name} | ${f.faultSeconds || '—'} | ${f.calls} | ${f.served} | ${f.servedChargedOnce} | ${f.servedNotCharged.length} | ${f.servedChargedTwice.length} | ${f.failedBeforeAnyByte} | ${f.refusedForMoney} | ${f.failedButCharged.length} | ${f.cutBeforeAnyByte} | ${f.cutBeforeAnyByteCharged} | ${f.cutMidAnswer} | ${f.recoverSeconds ?? (f.name === 'calm' ? '—' : '**never**')} | ${yes(f.pass && (f.problems?.length ?? 0) === 0)} |`;
  return [...header, row(run.calm), ...run.faults.map(row)].join('\n');
}

/** Calls by kind and by what their reservation covers (their shape), in the order first seen. */
export function byKind(calls: CallRecord[]): string {
  const groups = new Map<string, CallRecord[]>();
  for (const call of calls) {
    const key = call.shape ? `${call.kind} | ${call.shape}` : `${call.kind} | —`;
    groups.set(key, [...(groups.get(key) ?? []), call]);
  }
  const lines = [
    '| kind | shape | calls | served 200 | refused 402 | failed before any byte | cut mid-answer |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const [key, of] of groups) {
    lines.push(
      `| ${key} | ${of.length} | ${of.filter((c) => c.complete).length} | ${of.filter((c) => c.status === 402).length} | ${of.filter((c) => !c.complete && !c.anyByte).length} | ${of.filter((c) => !c.complete && c.anyByte).length} |`,
    );
  }
  return lines.join('\n');
}

function failureCauses(calls: CallRecord[]): string {
  const counts = new Map<string, number>();
  for (const call of calls.filter((c) => !c.complete)) {
    const cause =
      `${call.status || 'no answer'} ${(call.error ?? '').replace(/\s+/g, ' ').slice(0, 90)}`.trim();
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 15);
  if (sorted.length === 0) return 'None.';
  return [
    '| status and cause | calls |',
    '|---|---:|',
    ...sorted.map(([c, n]) => `| ${c.replace(/\|/g, '\\|')} | ${n} |`),
  ].join('\n');
}

export function renderReport(run: ChaosRun): string {
  const problems = run.faults.flatMap((f) => f.problems.map((p) => `- ${f.name}: ${p}`));
  const details = [run.calm, ...run.faults].flatMap((f) => [
    ...(f.servedNotCharged.length ? [`- ${f.name}: served but not charged${list(f.servedNotCharged)}`] : []),
    ...(f.servedChargedTwice.length
      ? [`- ${f.name}: served and charged twice${list(f.servedChargedTwice)}`]
      : []),
    ...(f.failedButCharged.length
      ? [`- ${f.name}: failed before any byte yet charged${list(f.failedButCharged)}`]
      : []),
    ...(f.cutChargedTwice.length ? [`- ${f.name}: cut and charged twice${list(f.cutChargedTwice)}`] : []),
  ]);
  return `# Chaos run ${run.runId}

Verdict: **${verdict(run) ? 'PASS' : 'FAIL'}**

- command: \`${run.command}\`
- started ${run.startedAt.toISOString()}, finished ${run.finishedAt.toISOString()} (${Math.round((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000)} s)
- machine: ${run.machine}

A call belongs to the last fault that began before it ended (a call in flight when a fault begins
is that fault's). "Served" is a 200 whose whole answer arrived; "charged" counts billing's usage-log
rows for the call's request id (the client's own \`x-request-id\`; a chat answer's
\`chat-<chat>-<answer>\`). "Refused" is an error status or a refused connection: never to be charged.
"Cut before any byte" is a connection reset or closed, or the client's deadline, before any byte:
relay may have served the upstream by then and charges what was generated, as for any cut call, at
most once. "Recover s": from the fault's end (restart
done, or SIGCONT) to the end of the first served call that started after it.

## Per fault

${faultTable(run)}

${details.length ? `Calls that broke the rules:\n\n${details.join('\n')}\n` : 'Every served call was charged exactly once; no call that failed before any byte was charged.\n'}
${problems.length ? `Faults that did not apply or lift cleanly:\n\n${problems.join('\n')}\n` : ''}
## Money

| check | result |
|---|---|
| ledger audit (every balance = sum of its ledger entries) | ${yes(run.ledgerAudit.clean)}${run.ledgerAudit.clean ? '' : ` (${run.ledgerAudit.mismatched} account(s) differ)`} |
| paid top-ups credited exactly once, with the promised quota and bonus | ${yes(run.topUps.pass)}: ${run.topUps.creditedOnce} of ${run.topUps.paid}${run.topUps.notCredited.length ? `; not credited${list(run.topUps.notCredited)}` : ''}${run.topUps.creditedTwiceOrWrong.length ? `; credited twice or wrong${list(run.topUps.creditedTwiceOrWrong)}` : ''} |
| abandoned (canceled) top-ups credited | ${run.topUps.unpaidButCredited.length}${list(run.topUps.unpaidButCredited)} |
| no balance below minus one call (${run.balanceFloor.oneCall} units) | ${yes(run.balanceFloor.pass)}${list(run.balanceFloor.below.map((b) => `user ${b.userId}: ${b.quota}`))} |
| no usage event left unsettled: outbox rows unpublished | ${Object.entries(run.settlement.outboxPending)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')} |
| no usage event left unsettled: billing.usage lag on usage.recorded | ${run.settlement.usageLag ?? 'unknown'} |
| every reservation in relay's store settled or released (after the holds lapsed) | ${yes(run.reservations.pass)}: ${run.reservations.outstanding} left, ${run.reservations.heldByKilledRelay} of them held by a relay when it was killed (freed after the TTL)${list(run.reservations.unreleased.map((r) => `${r.account} ${r.id} ${r.amount}`))} |
| the tight-balance client (${run.tightClient.client}) | ${run.tightClient.startQuota} units at the start, ${run.tightClient.finalQuota} at the end; ${run.tightClient.served} calls served, ${run.tightClient.refusedForMoney} refused with 402${run.tightClient.firstRefusalSeconds === null ? ' (its balance lasted the run)' : `, the first ${run.tightClient.firstRefusalSeconds} s into the load`} |

## Load

${byKind(run.calls)}

Why calls were not served (all windows):

${failureCauses(run.calls)}
${
  run.notes.length
    ? `\n## Notes from the clients\n\n${[...new Set(run.notes)]
        .slice(0, 30)
        .map((n) => `- ${n}`)
        .join('\n')}\n`
    : ''
}`;
}
