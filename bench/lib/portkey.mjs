// Portkey's gateway (the reference Node gateway), installed once into a scratch folder from
// bench/portkey/package.json, whose npm overrides pin the versions Portkey's own lockfile uses
// (unpinned, its streaming answers 500).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runToEnd, startChild } from './child.mjs';
import { log } from './log.mjs';
import { freePort } from './net.mjs';
import { REPO_ROOT } from './workspace.mjs';

const manifest = join(REPO_ROOT, 'bench', 'portkey', 'package.json');
export const PORTKEY_VERSION = JSON.parse(readFileSync(manifest, 'utf8')).dependencies['@portkey-ai/gateway'];

function scratchDir() {
  const cache =
    process.env.TOLLGATE_CACHE_DIR ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tollgate');
  return join(cache, `portkey-${PORTKEY_VERSION}`);
}

async function ensureInstalled() {
  const dir = scratchDir();
  const entry = join(dir, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  if (existsSync(entry)) return entry;
  log(`installing @portkey-ai/gateway ${PORTKEY_VERSION} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(manifest, join(dir, 'package.json'));
  // Its postinstall runs patch-package on patches the published package does not ship.
  await runToEnd('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: dir,
    timeoutMs: 600_000,
  });
  if (!existsSync(entry)) throw new Error(`npm install left no ${entry}`);
  return entry;
}

export async function startPortkey({ logDir }) {
  const entry = await ensureInstalled();
  const port = await freePort();
  const { child, stop } = await startChild({
    name: 'portkey',
    command: process.execPath,
    args: [entry, `--port=${port}`, '--headless'],
    cwd: scratchDir(),
    // Production mode: no request log pushed to its local UI.
    env: { NODE_ENV: 'production' },
    ready: /Ready for connections/,
    logFile: join(logDir, 'portkey.log'),
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop, version: PORTKEY_VERSION };
}
