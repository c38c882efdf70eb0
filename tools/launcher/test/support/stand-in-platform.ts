import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { BACKEND_SERVICES, type ServiceName } from '@tollgate/contracts';
import type { DistributedOptions } from '../../src/distributed';

/** Every service the launcher starts. */
export const ALL_SERVICES: ServiceName[] = [...BACKEND_SERVICES, 'gateway'];

/**
 * A repository root whose services are all the stand-in `source` (apps/<name>/dist/main.js), for specs of
 * the distributed launcher; the databases it makes for them are real, under `prefix`.
 */
export class StandInRoot {
  readonly root: string;

  constructor(
    source: string,
    private readonly adminUrl: string,
    private readonly prefix: string,
  ) {
    this.root = mkdtempSync(join(tmpdir(), 'distributed-stand-ins-'));
    for (const name of ALL_SERVICES) {
      mkdirSync(join(this.root, 'apps', name, 'dist'), { recursive: true });
      writeFileSync(join(this.root, 'apps', name, 'dist', 'main.js'), source);
    }
  }

  /** startDistributed's options for it: the stand-ins use neither Redis nor Kafka. */
  options(): DistributedOptions {
    return {
      repoRoot: this.root,
      env: {},
      postgresAdminUrl: this.adminUrl,
      redisUrl: 'redis://127.0.0.1:9',
      kafkaBrokers: '127.0.0.1:9',
      databasePrefix: this.prefix,
      logDir: join(this.root, 'logs'),
    };
  }

  /** Removes the root and the databases the launcher made. */
  async remove(): Promise<void> {
    rmSync(this.root, { recursive: true, force: true });
    const admin = new Client({ connectionString: this.adminUrl });
    await admin.connect();
    for (const service of ['auth', 'billing', 'chat', 'admin'])
      await admin.query(`drop database if exists "${this.prefix}_${service}"`);
    await admin.end();
  }
}
