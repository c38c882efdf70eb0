#!/usr/bin/env node
// Runs the fake LLM upstream of libs/testing: `npm run fake-upstream -- --port 0 --latency-ms 20 …`
// (`--help` lists the flags). Uses the compiled library, building it first when it is missing or
// older than its sources. Prints `fake-upstream listening on http://HOST:PORT` on stdout once ready;
// build output goes to stderr so that stdout stays parseable.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const library = join(root, 'libs', 'testing');
// The CLI module itself, not the index: the index also loads the service harness (MikroORM, kafkajs).
const entry = join(library, 'dist', 'fake-upstream', 'fake-upstream.cli.js');
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
  process.stderr.write('fake-upstream: building libs/testing…\n');
  const tsc = require.resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'libs/testing'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) {
    if (!existsSync(entry)) {
      process.stderr.write('fake-upstream: the build failed and there is no earlier build to run\n');
      process.exit(1);
    }
    process.stderr.write('fake-upstream: the build reported errors; running the output it produced\n');
  }
}

await require(entry).fakeUpstreamMain(process.argv.slice(2));
