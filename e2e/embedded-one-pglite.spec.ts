import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@tollgate/testing';
import { type EmbeddedRun, killEmbeddedRuns, startEmbedded } from './support/embedded-run';

jest.setTimeout(300_000);

const SETTINGS = { TOLLGATE_ROOT_PASSWORD: 'one-pglite-root-password' };
const ROOT_CREATED = /Root user \\?"root\\?" created/;
const SERVICES = ['auth', 'billing', 'chat', 'admin'];

/**
 * Embedded mode's databases: one PGlite cluster for auth, billing, chat and admin (a schema each) in
 * a new data directory, the same one with TOLLGATE_EMBEDDED_WORKER=0; a data directory of the
 * layout before (a cluster per service) keeps it, and its data.
 */
describe('embedded mode: one PGlite for the services', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-one-pglite-'));
  const runs: EmbeddedRun[] = [];
  let port: number;

  const runUntilReady = async (dataDir: string, env: Record<string, string> = {}) => {
    const run = startEmbedded(dataDir, port, { ...SETTINGS, ...env });
    runs.push(run);
    await eventually(
      'the embedded platform',
      async () => {
        if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/health/ready`)).ok ? true : undefined;
      },
      180_000,
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    return run.output();
  };

  beforeAll(async () => {
    port = await freePort();
  });
  afterAll(async () => {
    await killEmbeddedRuns(runs);
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps a new data directory in one cluster, and finds its data there on a restart, with the services on the main thread too', async () => {
    const dataDir = join(root, 'new');

    expect(await runUntilReady(dataDir)).toMatch(ROOT_CREATED);
    expect(readdirSync(join(dataDir, 'pg')).filter((name) => !name.startsWith('.'))).toEqual(['platform']);

    const again = await runUntilReady(dataDir);
    expect(again).not.toMatch(ROOT_CREATED);
    expect(again).not.toContain('a database per service');

    const onMainThread = await runUntilReady(dataDir, { TOLLGATE_EMBEDDED_WORKER: '0' });
    expect(onMainThread).not.toMatch(ROOT_CREATED);
    expect(readdirSync(join(dataDir, 'pg')).filter((name) => !name.startsWith('.'))).toEqual(['platform']);
  });

  it('keeps a data directory with a cluster per service (the layout before) as it is, with its data', async () => {
    const dataDir = join(root, 'legacy');
    const template = join(root, 'initdb');
    execFileSync(process.execPath, [
      '-e',
      `require(${JSON.stringify(require.resolve('@electric-sql/pglite'))}).PGlite.create({ dataDir: ${JSON.stringify(template)} }).then((db) => db.close())`,
    ]);
    for (const service of SERVICES) cpSync(template, join(dataDir, 'pg', service), { recursive: true });

    const first = await runUntilReady(dataDir);
    expect(first).toMatch(ROOT_CREATED);
    expect(first).toContain('a database per service (auth, billing, chat, admin)');
    expect(existsSync(join(dataDir, 'pg', 'platform'))).toBe(false);

    const again = await runUntilReady(dataDir);
    expect(again).not.toMatch(ROOT_CREATED);
    expect(existsSync(join(dataDir, 'pg', 'platform'))).toBe(false);
  });
});
