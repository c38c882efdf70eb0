import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioProcess } from '@tollgate/persistence';
import { copyPgliteTemplate } from '@tollgate/testing';
import { STAGING_CLUSTER } from '../../src/legacy-pglite-layout';

const SERVICES = ['auth', 'billing', 'chat', 'admin'];

jest.setTimeout(600_000);

/**
 * PGlite cannot run inside Jest's sandbox: the steps run in a child process (legacy-pglite-scenarios.ts),
 * one after another; a step that kills its process is followed by a new one. Made in beforeAll, as the
 * launcher loads the persistence library: lazily.
 */
let steps: ScenarioProcess;

const step = <T>(name: string, pgDir: string, option?: string): Promise<T> =>
  steps.run<T>(name, pgDir, ...(option ? [option] : []));

interface Snapshot {
  /** Each service's rows, sequence positions and migration rows, as the service opens its database. */
  seen: unknown[];
  /** The next id each service's sequences give. */
  next: unknown[];
  /** What billing's append-only trigger says to a delete. */
  triggered: string;
}
interface Prepared {
  log: string[];
  databases: { dataDir: string; schema?: string }[];
}

describe("moving a data directory's cluster per service into the one PGlite cluster", () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-legacy-pglite-'));
  const legacy = join(root, 'legacy', 'pg');
  let before: Snapshot;
  /** Each test's copy of the legacy layout, as the code before one cluster left it, to migrate. */
  const copyFor = (test: string) => join(root, test, 'pg');
  const entries = (pgDir: string) => readdirSync(pgDir).sort();

  beforeAll(async () => {
    const { ScenarioProcess } = await import('@tollgate/persistence');
    steps = new ScenarioProcess(join(__dirname, '..', 'support', 'legacy-pglite-scenarios.ts'), 300_000);
    // Each cluster as initdb left it, and beside them the launcher's initdb template (`.initdb`, which
    // the layout before one cluster had too), as copies of the integration tier's: initdb would
    // otherwise run here once per cluster and again in each test's first start, on every copy.
    for (const cluster of [...SERVICES, '.initdb']) copyPgliteTemplate(join(legacy, cluster));
    // Each service's tables in `public` of its own cluster, made by its migrations as the services
    // made them on that layout (startPgliteServers with a data directory each), rows in each.
    await step('legacy', legacy, '2000');
    for (const test of ['moved', 'fail', 'kill']) cpSync(legacy, copyFor(test), { recursive: true });
    // Read (and its sequences taken) on the layout itself, once each test has its copy.
    before = await step<Snapshot>('snapshot-legacy', legacy);
  });
  afterAll(async () => {
    await steps.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("puts each service's rows, sequence positions and migration rows in its schema, and a second start moves nothing", async () => {
    const pgDir = copyFor('moved');

    const first = await step<Prepared>('prepare', pgDir);

    expect(first.databases).toEqual(SERVICES.map((schema) => ({ dataDir: join(pgDir, 'platform'), schema })));
    expect(first.log.join('\n')).toMatch(/moved auth, billing, chat, admin \(16 tables, 8,044 rows\)/);
    expect(entries(pgDir)).toEqual([
      '.initdb',
      'admin.migrated',
      'auth.migrated',
      'billing.migrated',
      'chat.migrated',
      'platform',
    ]);
    const second = await step<Prepared>('prepare', pgDir);
    expect(second.log).toEqual([]);
    // Opened with their migrations (which then find nothing to do), rows and ids where they were.
    expect(await step<Snapshot>('snapshot', pgDir)).toEqual(before);
  });

  it.each([
    ['fails', 'fail'],
    ['is killed', 'kill'],
  ])(
    'leaves the old layout as it was when the move %s after the second service, and the next start moves it all',
    async (_, how) => {
      const pgDir = copyFor(how);

      const stopped = step<Prepared>('prepare', pgDir, how);

      if (how === 'kill') {
        await expect(stopped).rejects.toMatchObject({ signal: 'SIGKILL' });
        expect(existsSync(join(pgDir, STAGING_CLUSTER))).toBe(true);
      } else {
        const { databases, log } = await stopped;
        expect(log[1]).toContain('could not move the databases (injected after billing)');
        // The old layout, in use as before.
        expect(databases).toEqual(SERVICES.map((service) => ({ dataDir: join(pgDir, service) })));
        expect(entries(pgDir)).toEqual(['.initdb', 'admin', 'auth', 'billing', 'chat']);
      }
      expect(existsSync(join(pgDir, 'platform'))).toBe(false);

      const next = await step<Prepared>('prepare', pgDir);

      expect(next.log.join('\n')).toContain('moved auth, billing, chat, admin');
      expect(entries(pgDir)).not.toContain(STAGING_CLUSTER);
      expect(await step<Snapshot>('snapshot', pgDir)).toEqual(before);
    },
  );
});
