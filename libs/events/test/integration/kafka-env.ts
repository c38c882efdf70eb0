import { randomBytes } from 'node:crypto';

/** The test run's Kafka brokers (KAFKA_BROKERS, comma-separated); the suites refuse to run without it. */
const fromEnv = process.env['KAFKA_BROKERS'];
if (!fromEnv) {
  throw new Error(
    'KAFKA_BROKERS is not set: start Kafka with `bash scripts/infra.sh up kafka` and load `eval "$(bash scripts/infra.sh env)"`',
  );
}
export const brokers: string[] = fromEnv.split(',');

/** A topic or group name of this run's own. */
export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
