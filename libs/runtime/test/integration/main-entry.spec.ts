import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const BUILT = ['libs/runtime/dist/main.js', 'libs/runtime/dist/index.js'];
/** What a clustered primary must not load: NestJS, MikroORM, Kafka, Redis, OpenTelemetry's SDK. */
const HEAVY = ['@nestjs/core', '@mikro-orm/core', 'kafkajs', 'ioredis', '@opentelemetry/sdk-node'];

/**
 * Requires `specifier` in a fresh Node process, the way a built apps/<name>/dist/main.js does (through
 * the package's "exports"), and answers which of HEAVY are then in its require.cache.
 */
const heavyPackagesLoadedBy = (specifier: string): string[] => {
  const probe = `
    require(${JSON.stringify(specifier)});
    const heavy = ${JSON.stringify(HEAVY)};
    const loaded = Object.keys(require.cache);
    process.stdout.write(JSON.stringify(heavy.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')))));
  `;
  const output = execFileSync(process.execPath, ['-e', probe], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '' },
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[];
};

describe('@tollgate/runtime/main, the entry a service main.ts imports', () => {
  beforeAll(() => {
    const missing = BUILT.filter((file) => !existsSync(join(REPO_ROOT, file)));
    if (missing.length) {
      throw new Error(`${missing.join(', ')} missing: build first (node scripts/build.mjs)`);
    }
  });

  it('loads none of NestJS, MikroORM, Kafka, Redis or the OpenTelemetry SDK', () => {
    expect(heavyPackagesLoadedBy('@tollgate/runtime/main')).toEqual([]);
  });

  it('while the full entry loads them (so the probe sees what it looks for)', () => {
    expect(heavyPackagesLoadedBy('@tollgate/runtime')).toEqual(
      expect.arrayContaining(['@nestjs/core', '@mikro-orm/core']),
    );
  });
});
