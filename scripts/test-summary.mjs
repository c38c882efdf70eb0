#!/usr/bin/env node
// Adds up the Jest JSON reports of every tier and prints the closing line "N passed, N failed".
// Steps that failed outside Jest (lint, type-check, build, infra) count as failures too. Prints
// each tier's wall time (from its report) and the other steps' (steps.tsv, written by test.sh);
// tiers that ran side by side each show their own.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [reports, ...failedSteps] = process.argv.slice(2);
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
  const seconds = ends.length > 0 ? Math.round((Math.max(...ends) - r.startTime) / 1000) : 0;
  console.log(
    `${tier}: ${r.numPassedTests} passed, ${r.numFailedTests + brokenSuites} failed, ${r.numPendingTests} skipped, ${seconds} s`,
  );
  passed += r.numPassedTests;
  failed += r.numFailedTests + brokenSuites;
  skipped += r.numPendingTests + r.numTodoTests;
}
const stepsFile = join(reports, 'steps.tsv');
if (existsSync(stepsFile)) {
  for (const line of readFileSync(stepsFile, 'utf8').split('\n').filter(Boolean)) {
    const [name, seconds] = line.split('\t');
    console.log(`${name}: ${seconds} s`);
  }
}
for (const step of failedSteps) console.log(`failed step: ${step}`);
failed += failedSteps.filter((s) => !s.endsWith(' tests')).length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
