// Smoke test for scripts/infra.sh: a real round trip against each service, addressed by the environment.
//   eval "$(bash scripts/infra.sh env)" && node scripts/infra/smoke.mjs [postgres] [redis] [kafka]
// No names = all three. A named service whose variable (DATABASE_URL, REDIS_URL, KAFKA_BROKERS) is unset
// fails. Prints one line per service; exits non-zero if any check fails.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';

const TIMEOUT_MS = 60_000;

async function checkPostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 AS one, version() AS version');
    if (rows[0].one !== 1) throw new Error(`SELECT 1 returned ${JSON.stringify(rows[0])}`);
    const database = `smoke_${randomUUID().replaceAll('-', '')}`;
    await client.query(`CREATE DATABASE ${database}`);
    const created = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    await client.query(`DROP DATABASE ${database}`);
    if (created.rowCount !== 1) throw new Error(`database ${database} was not created`);
    return `${rows[0].version.split(' ').slice(0, 2).join(' ')}, SELECT 1 and CREATE/DROP DATABASE ok`;
  } finally {
    await client.end();
  }
}

async function checkRedis(url) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  let connectionError;
  redis.on('error', (error) => {
    connectionError = error; // connect() only says "Connection is closed"; this says why
  });
  await redis.connect().catch((error) => {
    throw connectionError ?? error;
  });
  try {
    const key = `smoke:${randomUUID()}`;
    const value = randomUUID();
    await redis.set(key, value, 'EX', 60);
    const read = await redis.get(key);
    await redis.del(key);
    if (read !== value) throw new Error(`GET returned ${read}, expected ${value}`);
    const info = await redis.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    return `Redis ${version}, SET/GET ok`;
  } finally {
    redis.disconnect();
  }
}

async function checkKafka(brokers) {
  const kafka = new Kafka({
    clientId: 'tollgate-infra-smoke',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const topic = `smoke-${randomUUID()}`;
  const admin = kafka.admin();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `smoke-${randomUUID()}` });
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    const sent = [randomUUID(), randomUUID(), randomUUID()];
    await producer.connect();
    await producer.send({ topic, messages: sent.map((value, i) => ({ key: `k${i}`, value })) });

    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const received = [];
    await new Promise((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            received.push(message.value.toString());
            if (received.length === sent.length) resolve();
          },
        })
        .catch(reject);
    });
    if (received.join() !== sent.join()) {
      throw new Error(`read back ${JSON.stringify(received)}, expected ${JSON.stringify(sent)}`);
    }
    await admin.deleteTopics({ topics: [topic] });
    return `topic created, ${sent.length} messages produced and consumed by a group`;
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
  }
}

function withTimeout(promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS / 1000}s`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const ALL_CHECKS = [
  ['postgres', 'DATABASE_URL', checkPostgres],
  ['redis', 'REDIS_URL', checkRedis],
  ['kafka', 'KAFKA_BROKERS', checkKafka],
];

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !ALL_CHECKS.some(([known]) => known === name));
if (unknown.length > 0) {
  console.error(`smoke: unknown service(s) ${unknown.join(', ')} (expected postgres, redis or kafka)`);
  process.exit(2);
}
const checks = requested.length === 0 ? ALL_CHECKS : ALL_CHECKS.filter(([name]) => requested.includes(name));

function run([, variable, check]) {
  const address = process.env[variable];
  if (!address) {
    return Promise.reject(new Error(`${variable} is not set (eval "$(bash scripts/infra.sh env)")`));
  }
  return withTimeout(check(address));
}

const results = await Promise.allSettled(checks.map(run));
let failed = 0;
results.forEach((result, i) => {
  const [name, variable] = checks[i];
  if (result.status === 'fulfilled') {
    console.log(`ok   ${name.padEnd(8)} ${process.env[variable]}: ${result.value}`);
  } else {
    failed += 1;
    console.log(
      `FAIL ${name.padEnd(8)} ${process.env[variable] ?? '-'}: ${result.reason?.message ?? result.reason}`,
    );
  }
});
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
