import Module from 'node:module';

/**
 * kafkajs 2.2.4 (its last release) groups a produce's messages by partition with
 * `Object.assign(result, { [partition]: [...current, message] })` for every message: a copy of the
 * partition's list so far and a throwaway object each, quadratic in the messages a partition gets in
 * one request. Relay's requests carry every usage event of the last 25 ms or more (KafkaPublisher), so
 * at c=64 that was ~1.7 KB of garbage a call, its largest kafkajs site (bench/ANALYSIS.md, h122).
 * This is the same grouping in one pass: an object keyed by partition, each list in message order, the
 * partitioner called the same way for each message.
 */
export interface GroupingArgs<M, P> {
  topic: string;
  partitionMetadata: P[];
  messages: M[];
  partitioner: (args: { topic: string; partitionMetadata: P[]; message: M }) => number;
}

export function groupMessagesPerPartition<M, P>({
  topic,
  partitionMetadata,
  messages,
  partitioner,
}: GroupingArgs<M, P>): Record<number, M[]> {
  const grouped: Record<number, M[]> = {};
  if (partitionMetadata.length === 0) return grouped;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    const list = grouped[partition];
    if (list) list.push(message);
    else grouped[partition] = [message];
  }
  return grouped;
}

export const PATCHED_KAFKAJS_VERSION = '2.2.4';
const GROUPING_MODULE = 'kafkajs/src/producer/groupMessagesPerPartition';
/** The module that binds the grouping function once, when it loads (with all of kafkajs). */
const BINDING_MODULE = 'kafkajs/src/producer/sendMessages';

type ModuleCache = Record<string, Pick<NodeJS.Module, 'exports'> | undefined>;

/**
 * Whether kafkajs's producer will group with the one-pass function: a process that loaded kafkajs before
 * this module (any import of kafkajs ahead of @tollgate/events) silently keeps kafkajs's own.
 */
export function kafkajsGroupsInOnePass(
  cache: ModuleCache = require.cache,
  resolve: (id: string) => string = require.resolve,
): boolean {
  return cache[resolve(GROUPING_MODULE)]?.exports === groupMessagesPerPartition;
}

/**
 * Puts the one-pass grouping in the module cache under kafkajs's own module's name. kafkajs's producer
 * reads that module once, when kafkajs is first loaded, so this must run before anything loads kafkajs
 * (kafka-event-bus.ts imports this module first); once kafkajs is loaded it changes nothing and returns
 * false, as it does for a kafkajs other than 2.2.4 or where the cache is not Node's (Jest's registry).
 */
export function groupKafkajsMessagesInOnePass(
  cache: ModuleCache = require.cache,
  resolve: (id: string) => string = require.resolve,
  load: (id: string) => unknown = require,
): boolean {
  if (kafkajsGroupsInOnePass(cache, resolve)) return true;
  const groupingPath = resolve(GROUPING_MODULE);
  const { version } = load('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_KAFKAJS_VERSION) return false;
  if (cache[groupingPath] || cache[resolve(BINDING_MODULE)]) return false;
  const module = new Module(groupingPath);
  module.filename = groupingPath;
  module.loaded = true;
  module.exports = groupMessagesPerPartition;
  cache[groupingPath] = module;
  return load(groupingPath) === groupMessagesPerPartition;
}

groupKafkajsMessagesInOnePass();
