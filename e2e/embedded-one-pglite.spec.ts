import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, seedModelThroughAdmin, startFakeUpstream } from '@tollgate/testing';
import { Browser } from './support/accounts-browser';
import { type EmbeddedRun, killEmbeddedRuns, startEmbedded } from './support/embedded-run';

jest.setTimeout(300_000);

const SETTINGS = { TOLLGATE_ROOT_PASSWORD: 'one-pglite-root-password' };
const ROOT_CREATED = /Root user \\?"root\\?" created/;
const SERVICES = ['auth', 'billing', 'chat', 'admin'];

/**
 * Embedded mode's databases: one PGlite cluster for auth, billing, chat and admin (a schema each) in
 * a new data directory, the same one with TOLLGATE_EMBEDDED_WORKER=0; a data directory of the
 * layout before (a cluster per service) has its data moved into the one cluster on its next start.
 */
describe('embedded mode: one PGlite for the services', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-one-pglite-'));
  const runs: EmbeddedRun[] = [];
  let port: number;

  const startUntilReady = async (dataDir: string, env: Record<string, string> = {}) => {
    const run = startEmbedded(dataDir, port, { ...SETTINGS, ...env });
    runs.push(run);
    await eventually(
      'the embedded platform',
      async () => {
        if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.ok
          ? true
          : undefined;
      },
      180_000,
    );
    return run;
  };
  const stop = async (run: EmbeddedRun) => {
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  };
  const runUntilReady = async (dataDir: string, env: Record<string, string> = {}) => {
    const run = await startUntilReady(dataDir, env);
    await stop(run);
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

  it("moves a data directory with a cluster per service (the layout before) into the one cluster, once, and the customer's key, balance and usage log are there", async () => {
    const dataDir = join(root, 'legacy');
    const pgDir = join(dataDir, 'pg');
    const base = `http://127.0.0.1:${port}`;
    const upstream = await startFakeUpstream();
    try {
      // A customer with a key, a balance and a call in the usage log, made through the HTTP API.
      let run = await startUntilReady(dataDir);
      const admin = new Browser(base);
      expect((await admin.signIn('root', SETTINGS.TOLLGATE_ROOT_PASSWORD)).status).toBe(200);
      await seedModelThroughAdmin((path, method, body) => admin.call(path, { method, body }), {
        model: MODEL,
        upstreamUrl: upstream.url,
      });
      const created = await admin.call('/api/user/', { body: { username: 'customer', password: PASSWORD } });
      const userId = (created.body.data as { id: number }).id;
      expect(
        (await admin.call('/api/user/', { method: 'PUT', body: { id: userId, quota: 10_000_000 } })).status,
      ).toBe(200);
      const customer = new Browser(base);
      expect((await customer.signIn('customer', PASSWORD)).status).toBe(200);
      const tokenId = (
        (await customer.call('/api/token/', { body: { name: 'my key', unlimited_quota: true } })).body
          .data as { id: number }
      ).id;
      const apiKey = (
        (await customer.call(`/api/token/${tokenId}/key`, { method: 'POST' })).body.data as { key: string }
      ).key;
      await eventually('a call with the key', async () =>
        (await complete(base, apiKey)) === 200 ? true : undefined,
      );
      const logged = await eventually('the call in the usage log', async () => {
        const rows = await usageLog(customer);
        return rows.length > 0 ? rows : undefined;
      });
      const balance = await eventually('the balance charged', async () => {
        const quota = await quotaOf(customer);
        return quota === 10_000_000 - logged.reduce((sum, row) => sum + row.quota, 0) ? quota : undefined;
      });
      await stop(run);

      // The same data in the layout before one cluster: each service's cluster with its tables in public.
      makeLegacyLayout(pgDir);
      expect(entries(pgDir)).toEqual(SERVICES.slice().sort());

      run = await startUntilReady(dataDir, { TOLLGATE_EMBEDDED_WORKER: '0' });
      expect(run.output()).toContain('a database per service (auth, billing, chat, admin)');
      expect(run.output()).toMatch(
        /moved auth, billing, chat, admin \(\d+ tables, [\d,]+ rows\) into .* in [\d.]+ s/,
      );
      expect(entries(pgDir)).toEqual([
        ...SERVICES.map((service) => `${service}.migrated`).sort(),
        'platform',
      ]);
      expect(run.output()).not.toMatch(ROOT_CREATED);
      const again = new Browser(base);
      expect((await again.signIn('customer', PASSWORD)).status).toBe(200);
      expect(await quotaOf(again)).toBe(balance);
      expect(await usageLog(again)).toEqual(logged);
      expect(await complete(base, apiKey)).toBe(200);
      await eventually('the second call in the usage log', async () =>
        (await usageLog(again)).length === logged.length + 1 ? true : undefined,
      );
      await stop(run);

      const third = await runUntilReady(dataDir);
      expect(third).not.toContain('a database per service');
      expect(entries(pgDir)).toEqual([
        ...SERVICES.map((service) => `${service}.migrated`).sort(),
        'platform',
      ]);
    } finally {
      await upstream.close();
    }
  });
});

const MODEL = 'one-pglite-gpt';
const PASSWORD = 'customer-password-9';

interface LogRow {
  id: number;
  model_name: string;
  token_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

const entries = (pgDir: string) =>
  readdirSync(pgDir)
    .filter((name) => !name.startsWith('.'))
    .sort();

async function complete(base: string, apiKey: string): Promise<number> {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hello' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function usageLog(browser: Browser): Promise<LogRow[]> {
  const rows =
    ((await browser.call('/api/log/self?p=1&page_size=50')).body.data as { items?: LogRow[] }).items ?? [];
  return rows
    .filter((row) => row.model_name === MODEL)
    .map(({ id, model_name, token_name, quota, prompt_tokens, completion_tokens }) => ({
      id,
      model_name,
      token_name,
      quota,
      prompt_tokens,
      completion_tokens,
    }));
}

async function quotaOf(browser: Browser): Promise<number> {
  return ((await browser.call('/api/user/self')).body.data as { quota: number }).quota;
}

/**
 * Turns a data directory's one cluster into the layout before it, as that code left it: a copy of
 * the cluster per service with only that service's tables, in `public`. In a child process: PGlite
 * cannot run inside Jest's sandbox.
 */
function makeLegacyLayout(pgDir: string): void {
  execFileSync(
    process.execPath,
    [
      '-e',
      `
const { cpSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { PGlite } = require(process.argv[1]);
const [pgDir, ...services] = process.argv.slice(2);
(async () => {
  for (const service of services) {
    cpSync(join(pgDir, 'platform'), join(pgDir, service), { recursive: true });
    const db = await PGlite.create({ dataDir: join(pgDir, service) });
    await db.exec('drop schema public cascade; alter schema "' + service + '" rename to public');
    for (const other of services) if (other !== service) await db.exec('drop schema "' + other + '" cascade');
    await db.close();
  }
  rmSync(join(pgDir, 'platform'), { recursive: true });
})();`,
      require.resolve('@electric-sql/pglite'),
      pgDir,
      ...SERVICES,
    ],
    { stdio: 'inherit' },
  );
}
