import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPgliteTemplate } from '@tollgate/testing';

jest.setTimeout(240_000);

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const MAIN = join(REPO_ROOT, 'tools', 'launcher', 'dist', 'main-embedded.js');

interface Platform {
  child: ChildProcess;
  output: () => string;
  /** The gateway's address, once `npm start` says it is running. */
  url: Promise<string>;
  exited: Promise<number | null>;
}

/** `npm start`'s entry point on any free port (PORT=0) with its own data directory. */
function startPlatform(dataDir: string): Platform {
  const child = spawn(process.execPath, [MAIN], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      TOLLGATE_DATA_DIR: dataDir,
      TOLLGATE_ROOT_PASSWORD: 'two-platforms-root',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const running = /Tollgate is running on (http:\/\/\S+) /.exec(output);
      if (running) resolve(running[1]!);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => reject(new Error(`exited with ${code} before it was running:\n${output}`)));
  });
  return { child, output: () => output, url, exited };
}

describe('embedded platforms started at the same time', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-two-platforms-'));
  const platforms: Platform[] = [];

  afterAll(async () => {
    for (const { child, exited } of platforms) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('both start, each on its own ports, both serve /api/status, and both stop cleanly', async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "node scripts/build.mjs" first`);
    // Each with the launcher's initdb template already there (a copy of the integration tier's): this
    // is about ports chosen at the same time; a first start's initdb is e2e's (embedded.spec.ts starts
    // on a new data directory), at ~6 s of CPU and ~850 MB each.
    for (const name of ['a', 'b']) copyPgliteTemplate(join(root, name, 'pg', '.initdb'));
    platforms.push(startPlatform(join(root, 'a')), startPlatform(join(root, 'b')));

    const urls = await Promise.all(platforms.map((p) => p.url));
    expect(new Set(urls).size).toBe(2);
    for (const url of urls) {
      const response = await fetch(`${url}/api/status`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { success: boolean; data: { server_address: string } };
      expect(body.success).toBe(true);
      // PORT=0: the gateway's port was held before the services started, so they were told the real one.
      expect(body.data.server_address).toBe(url.replace('127.0.0.1', 'localhost'));
    }
    const internalPorts = platforms.map((p) =>
      [...p.output().matchAll(/ on http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => m[1]),
    );
    expect(new Set(internalPorts.flat()).size).toBe(12);

    for (const { child } of platforms) child.kill('SIGTERM');
    expect(await Promise.all(platforms.map((p) => p.exited))).toEqual([0, 0]);
  });
});
