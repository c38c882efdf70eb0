#!/usr/bin/env node
// `npm run start:distributed`: build, start real PostgreSQL, Redis and Kafka (scripts/infra.sh),
// then every service as its own process. Ctrl-C stops the services; `npm run infra -- down` the rest.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
execFileSync('bash', [join(root, 'scripts', 'infra.sh'), 'up'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const envText = execFileSync('bash', [join(root, 'scripts', 'infra.sh'), 'env'], {
  cwd: root,
  encoding: 'utf8',
});
for (const line of envText.split('\n')) {
  const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
  if (m) process.env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
}
await import(join(root, 'tools', 'launcher', 'dist', 'main-distributed.js'));
