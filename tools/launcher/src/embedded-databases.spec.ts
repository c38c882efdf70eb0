import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareServiceDatabases, SHARED_CLUSTER } from './embedded-databases';

const SERVICES = ['auth', 'billing', 'chat', 'admin'];

/** A stand-in for a cluster: prepareServiceDatabases only looks for PG_VERSION and copies folders. */
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

  it('keeps a data directory of one cluster per service as it is, saying so once, and adds the missing ones', async () => {
    fakeCluster(join(pgDir, 'auth'), 'money');
    fakeCluster(join(pgDir, 'billing'), 'money');
    const log = jest.fn();

    const databases = await prepareServiceDatabases(pgDir, SERVICES, log);

    expect(databases).toEqual(SERVICES.map((service) => ({ dataDir: join(pgDir, service) })));
    expect(readdirSync(pgDir).sort()).toEqual(['.initdb', 'admin', 'auth', 'billing', 'chat']);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toContain('a database per service (auth, billing)');
  });
});
