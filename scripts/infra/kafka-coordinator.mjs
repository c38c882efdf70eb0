#!/usr/bin/env node
// Waits until the broker can coordinate consumer groups. A fresh KRaft broker answers metadata at
// once but creates __consumer_offsets only on the first FindCoordinator, which takes seconds on a
// busy machine; a client that joins a group meanwhile fails with "group coordinator not found".
//   node scripts/infra/kafka-coordinator.mjs 127.0.0.1:9092 [timeout seconds]
import { createRequire } from 'node:module';

const [broker, timeoutSeconds = '90'] = process.argv.slice(2);
const require = createRequire(import.meta.url);
let kafkajs;
try {
  kafkajs = require('kafkajs');
} catch {
  console.error('kafka-coordinator: kafkajs is not installed yet (npm ci); not waiting for the coordinator');
  process.exit(0);
}

const { Kafka, logLevel } = kafkajs;
const admin = new Kafka({
  clientId: 'tollgate-infra-probe',
  brokers: [broker],
  logLevel: logLevel.NOTHING,
}).admin();
const deadline = Date.now() + Number(timeoutSeconds) * 1000;
await admin.connect();
try {
  for (;;) {
    try {
      await admin.describeGroups(['tollgate-infra-probe']);
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
} finally {
  await admin.disconnect();
}
