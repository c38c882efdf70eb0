// Preloaded into every service by bench/micro/kafka-requests.mjs --count (NODE_OPTIONS=--require …):
// counts the Kafka requests of each kafkajs client the process makes, by API, from kafkajs's own
// instrumentation (the REQUEST event of producers, consumers and admins: one per request sent). A
// consumer is named by its group (a table reader's random group as `table`), so one process's
// several consumers are told apart. Each time the file KAFKA_REQUESTS_DIR/snap changes, the process
// writes its counts so far to KAFKA_REQUESTS_DIR/<service>.<pid>.<snap's content>.json (a file watch,
// not a signal: Nest's shutdown hooks treat SIGUSR2 and most others as "stop").
'use strict';
const { watch, writeFileSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.KAFKA_REQUESTS_DIR;
if (dir) {
  const { Kafka } = require(require.resolve('kafkajs', { paths: [process.cwd()] }));
  /** `${client} ${api}` → requests. */
  const counts = new Map();
  const count = (client) => (event) => {
    const key = `${client} ${event.payload.apiName}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const consumer = Kafka.prototype.consumer;
  Kafka.prototype.consumer = function (config) {
    const created = consumer.call(this, config);
    const group = /\.table\.[0-9a-f-]{36}$/.test(config.groupId) ? 'table' : config.groupId;
    created.on(created.events.REQUEST, count(`consumer:${group}`));
    return created;
  };
  const producer = Kafka.prototype.producer;
  Kafka.prototype.producer = function (config) {
    const created = producer.call(this, config);
    created.on(created.events.REQUEST, count('producer'));
    return created;
  };
  const admin = Kafka.prototype.admin;
  Kafka.prototype.admin = function (config) {
    const created = admin.call(this, config);
    created.on(created.events.REQUEST, count('admin'));
    return created;
  };
  const service = process.env.SERVICE_NAME ?? 'unknown';
  const watcher = watch(dir, (_type, name) => {
    if (name !== 'snap') return;
    let snap;
    try {
      snap = readFileSync(join(dir, 'snap'), 'utf8').trim();
    } catch {
      return;
    }
    if (!snap) return;
    writeFileSync(
      join(dir, `${service}.${process.pid}.${snap}.json`),
      JSON.stringify(Object.fromEntries(counts)),
    );
  });
  watcher.unref();
}
