import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareServiceDatabases, SHARED_CLUSTER } from './embedded-databases';
import { STAGING_CLUSTER } from './legacy-pglite-layout';

const SERVICES = ['auth', 'billing', 'chat', 'admin'];

/**
 * A stand-in for a cluster: prepareServiceDatabases only looks for PG_VERSION, copies and renames
 * folders; the migration itself (on real clusters: test/integration/legacy-pglite-migration.spec.ts)
 * is a stand-in here too.
 */
function fakeCluster(dir: string, marker = 'template'): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'PG_VERSION'), '17\n');
  writeFileSync(join(dir, 'marker'), marker);
}

describe('prepareServiceDatabases', () => {
  let pgDir: string;
  beforeEach(() => {
    pgDir = join(mkdtempSync(join(tmpdir(), 'tollgate-service-databases-')), 'pg');
    // The initdb template present, so no cluster is created for real.
    fakeCluster(join(pgDir, '.initdb'));
  });
  afterEach(() => rmSync(join(pgDir, '..'), { recursive: true, force: true }));

  it('puts the services of a new data directory in one cluster, each in its own schema', async () => {
    const log = jest.fn();

    const databases = await prepareServiceDatabases(pgDir, SERVICES, log);

    const cluster = join(pgDir, SHARED_CLUSTER);
    expect(databases).toEqual(SERVICES.map((schema) => ({ dataDir: cluster, schema })));
    expect(existsSync(join(cluster, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(pgDir).sort()).toEqual(['.initdb', SHARED_CLUSTER]);
    expect(log).not.toHaveBeenCalled();
  });

  it('keeps the one cluster it made on the next start', async () => {
    await prepareServiceDatabases(pgDir, SERVICES, jest.fn());
    writeFileSync(join(pgDir, SHARED_CLUSTER, 'marker'), 'data');

    const databases = await prepareServiceDatabases(pgDir, SERVICES, jest.fn());

    expect(new Set(databases.map(({ dataDir }) => dataDir))).toEqual(new Set([join(pgDir, SHARED_CLUSTER)]));
    expect(readdirSync(pgDir).sort()).toEqual(['.initdb', SHARED_CLUSTER]);
    expect(existsSync(join(pgDir, SHARED_CLUSTER, 'marker'))).toBe(true);
  });

  it('moves the data of a data directory of one cluster per service into the one cluster, then renames the old ones', async () => {
    fakeCluster(join(pgDir, 'auth'), 'money');
    fakeCluster(join(pgDir, 'billing'), 'money');
    const log = jest.fn();
    const migrate = jest.fn(async ({ target }: { target: string }) => {
      // Nothing uses the cluster while it is filled.
      expect(existsSync(join(pgDir, SHARED_CLUSTER))).toBe(false);
      writeFileSync(join(target, 'marker'), 'moved');
      return [
        { service: 'auth', tables: 3, rows: 10 },
        { service: 'billing', tables: 4, rows: 100_000 },
      ];
    });

    const databases = await prepareServiceDatabases(pgDir, SERVICES, log, migrate);

    expect(migrate).toHaveBeenCalledWith({
      pgDir,
      services: ['auth', 'billing'],
      target: join(pgDir, STAGING_CLUSTER),
    });
    const cluster = join(pgDir, SHARED_CLUSTER);
    expect(databases).toEqual(SERVICES.map((schema) => ({ dataDir: cluster, schema })));
    expect(readFileSync(join(cluster, 'marker'), 'utf8')).toBe('moved');
    expect(readdirSync(pgDir).sort()).toEqual([
      '.initdb',
      'auth.migrated',
      'billing.migrated',
      SHARED_CLUSTER,
    ]);
    expect(readFileSync(join(pgDir, 'billing.migrated', 'marker'), 'utf8')).toBe('money');
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls[1]![0]).toMatch(
      /moved auth, billing \(7 tables, 100,010 rows\) into .* in [\d.]+ s/,
    );
    expect(log.mock.calls[1]![0]).toContain(join(pgDir, 'billing.migrated'));

    const again = jest.fn();
    await prepareServiceDatabases(pgDir, SERVICES, again, migrate);
    expect(migrate).toHaveBeenCalledTimes(1);
    expect(again).not.toHaveBeenCalled();
  });

  it('keeps the data directory of one cluster per service as it is when moving its data fails, and tries again on the next start', async () => {
    fakeCluster(join(pgDir, 'auth'), 'money');
    const log = jest.fn();
    const failing = jest.fn(async ({ target }: { target: string }) => {
      writeFileSync(join(target, 'marker'), 'half');
      throw new Error('moving billing: injected');
    });

    const databases = await prepareServiceDatabases(pgDir, SERVICES, log, failing);

    expect(databases).toEqual(SERVICES.map((service) => ({ dataDir: join(pgDir, service) })));
    expect(readdirSync(pgDir).sort()).toEqual(['.initdb', 'admin', 'auth', 'billing', 'chat']);
    expect(readFileSync(join(pgDir, 'auth', 'marker'), 'utf8')).toBe('money');
    expect(log.mock.calls[1]![0]).toContain('could not move the databases (moving billing: injected)');

    const migrate = jest.fn(async () => []);
    await prepareServiceDatabases(pgDir, SERVICES, jest.fn(), migrate);
    expect(migrate).toHaveBeenCalledWith(expect.objectContaining({ services: SERVICES }));
    expect(readdirSync(pgDir).sort()).toEqual([
      '.initdb',
      'admin.migrated',
      'auth.migrated',
      'billing.migrated',
      'chat.migrated',
      SHARED_CLUSTER,
    ]);
  });

  it('finishes a move stopped after the one cluster was complete: renames the old clusters, moves nothing again', async () => {
    fakeCluster(join(pgDir, 'auth'), 'old');
    fakeCluster(join(pgDir, SHARED_CLUSTER), 'moved');
    const migrate = jest.fn();

    const databases = await prepareServiceDatabases(pgDir, SERVICES, jest.fn(), migrate);

    expect(migrate).not.toHaveBeenCalled();
    expect(databases).toEqual(SERVICES.map((schema) => ({ dataDir: join(pgDir, SHARED_CLUSTER), schema })));
    expect(readdirSync(pgDir).sort()).toEqual(['.initdb', 'auth.migrated', SHARED_CLUSTER]);
    expect(readFileSync(join(pgDir, SHARED_CLUSTER, 'marker'), 'utf8')).toBe('moved');
  });
});
