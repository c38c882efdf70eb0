#!/usr/bin/env node
// Adds up the Jest JSON reports of every tier and prints the closing line "N passed, N failed".
// Steps that failed outside Jest (lint, type-check, build, infra) count as failures too. Prints
// each tier's wall time (from its report) and the other steps' (steps.tsv, written by test.sh);
// tiers that ran side by side each show their own. With test.sh's CPU samples (cpu.log: /proc/stat
// every 2 s), each line also says how busy the machine's cores were meanwhile.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [reports, ...failedSteps] = process.argv.slice(2);

/** /proc/stat's first line every 2 s: [epoch seconds, busy jiffies, total jiffies]. */
function cpuSamples(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[1] === 'cpu' && f.length >= 6)
    .map(([at, , ...jiffies]) => {
      const n = jiffies.map(Number);
      const total = n.reduce((a, b) => a + b, 0);
      return [Number(at), total - n[3] - n[4], total]; // idle and iowait are not busy
    });
}
const samples = cpuSamples(join(reports, 'cpu.log'));

/** ", CPU 87% busy" for the window [from, to] in epoch seconds, when samples cover it. */
function cpuBusy(from, to) {
  const inside = samples.filter(([at]) => at >= from && at <= to);
  if (inside.length < 2) return '';
  const [, busy0, total0] = inside[0];
  const [, busy1, total1] = inside[inside.length - 1];
  return total1 > total0 ? `, CPU ${Math.round((100 * (busy1 - busy0)) / (total1 - total0))}% busy` : '';
}
let passed = 0;
let failed = 0;
let skipped = 0;
for (const tier of ['unit', 'integration', 'fuzz', 'e2e', 'browser']) {
  const file = join(reports, `${tier}.json`);
  if (!existsSync(file)) {
    console.log(`${tier}: no report`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  // A suite that failed to load has no test results but counts as a failure.
  const brokenSuites = r.testResults.filter(
    (s) => s.status === 'failed' && s.assertionResults.length === 0,
  ).length;
  // Wall time of the tier: from Jest's start to the last suite's end.
  const ends = r.testResults.map((s) => s.endTime).filter((t) => typeof t === 'number');
  const end = ends.length > 0 ? Math.max(...ends) : r.startTime;
  const seconds = Math.round((end - r.startTime) / 1000);
  console.log(
    `${tier}: ${r.numPassedTests} passed, ${r.numFailedTests + brokenSuites} failed, ${r.numPendingTests} skipped, ${seconds} s${cpuBusy(r.startTime / 1000, end / 1000)}`,
  );
  passed += r.numPassedTests;
  failed += r.numFailedTests + brokenSuites;
  skipped += r.numPendingTests + r.numTodoTests;
}
const stepsFile = join(reports, 'steps.tsv');
if (existsSync(stepsFile)) {
  for (const line of readFileSync(stepsFile, 'utf8').split('\n').filter(Boolean)) {
    const [name, seconds, from, to] = line.split('\t');
    console.log(`${name}: ${seconds} s${from ? cpuBusy(Number(from), Number(to)) : ''}`);
  }
}
for (const step of failedSteps) console.log(`failed step: ${step}`);
failed += failedSteps.filter((s) => !s.endsWith(' tests')).length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
