// The machine and the versions a run used, for the report.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, release } from 'node:os';
import pg from 'pg';
import { rootPackageVersion, REPO_ROOT } from './workspace.mjs';

function firstMatch(text, re) {
  return re.exec(text)?.[1]?.trim();
}

export function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  return {
    nproc: Number(nproc),
    availableParallelism: availableParallelism(),
    cpu: firstMatch(cpuinfo, /model name\s*:\s*(.+)/) ?? 'unknown',
    memoryGiB: Number(firstMatch(meminfo, /MemTotal:\s+(\d+) kB/)) / 2 ** 20,
    kernel: release(),
  };
}

/** 1, 5 and 15 minute load averages: on a shared machine, what else was running shapes every number. */
export function loadAverage() {
  return loadavg().map((v) => Number(v.toFixed(2)));
}

async function postgresVersion(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('show server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

async function redisVersion(url) {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return firstMatch(await redis.info('server'), /redis_version:(\S+)/);
  } finally {
    redis.disconnect();
  }
}

function gitCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'apps', 'libs', 'bench'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

/** `loadGenerator`: { name: version } of what drove the non-streaming loads. */
export async function versions({ infra, loadGenerator, portkey }) {
  return {
    tollgate: gitCommit(),
    node: process.version,
    ...loadGenerator,
    portkey: portkey ?? 'not run',
    postgres: await postgresVersion(infra.DATABASE_URL).catch((e) => `unknown (${e.message})`),
    redis: await redisVersion(infra.REDIS_URL).catch((e) => `unknown (${e.message})`),
    kafka: process.env.TOLLGATE_KAFKA_VERSION || '3.9.1 (scripts/infra.sh default)',
    kafkajs: rootPackageVersion('kafkajs'),
    undici: rootPackageVersion('undici'),
    fastify: rootPackageVersion('fastify'),
    nestjs: rootPackageVersion('@nestjs/core'),
  };
}
