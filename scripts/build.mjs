#!/usr/bin/env node
// Builds what is out of date: the Node projects (tsc -b is incremental) and the web app (only
// when a source is newer than its last build). `--force` rebuilds the web app regardless.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function run(label, cmd, args, cwd = root) {
  const started = Date.now();
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
  console.log(`build: ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

run('services and libraries', process.execPath, [tsc, '-b', 'tsconfig.build.json']);

const web = join(root, 'apps', 'web');
const built = join(web, 'dist', 'index.html');
const sources = Math.max(
  newestMtime(join(web, 'src')),
  newestMtime(join(web, 'index.html')),
  newestMtime(join(web, 'vite.config.ts')),
  newestMtime(join(root, 'libs', 'contracts', 'src')),
);
if (force || !existsSync(built) || statSync(built).mtimeMs < sources) {
  run(
    'web app',
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    web,
  );
} else {
  console.log('build: web app is up to date');
}
