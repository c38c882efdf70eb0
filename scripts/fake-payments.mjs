#!/usr/bin/env node
// Runs libs/testing's fake YooKassa and crypto providers, with payment pages, for trying top-ups
// locally: `node scripts/fake-payments.mjs --platform http://127.0.0.1:3000` (`--help` lists the
// flags). Prints billing's environment for them (KEY=value lines) on stdout once ready; build output
// and the notifications' fate go to stderr. The build check is fake-upstream.mjs's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const library = join(root, 'libs', 'testing');
// The CLI module itself, not the index: the index also loads the service harness (MikroORM, kafkajs).
const entry = join(library, 'dist', 'fake-payments', 'fake-payments.cli.js');
// tsc -b rewrites the build info on every build that emits, so its time is the build's time.
const buildInfo = join(library, 'dist', 'tsconfig.tsbuildinfo');
const require = createRequire(import.meta.url);

function newestSourceTime(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function isBuildCurrent() {
  if (!existsSync(entry) || !existsSync(buildInfo)) return false;
  const builtAt = statSync(buildInfo).mtimeMs;
  return (
    builtAt >= newestSourceTime(join(library, 'src')) &&
    builtAt >= statSync(join(library, 'tsconfig.json')).mtimeMs
  );
}

if (!isBuildCurrent()) {
  process.stderr.write('fake-payments: building libs/testing…\n');
  const tsc = require.resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'libs/testing'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) {
    if (!existsSync(entry)) {
      process.stderr.write('fake-payments: the build failed and there is no earlier build to run\n');
      process.exit(1);
    }
    process.stderr.write('fake-payments: the build reported errors; running the output it produced\n');
  }
}

await require(entry).fakePaymentsMain(process.argv.slice(2));
