import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessEventBus, silentEventBusLogger, type EventRecord } from '../../src';
import { describeEventBusContract } from '../contract/event-bus.contract';

describeEventBusContract(
  'InProcessEventBus in memory',
  () => new InProcessEventBus({ logger: silentEventBusLogger }),
);

describe('InProcessEventBus on a data dir', () => {
  const contractDir = mkdtempSync(join(tmpdir(), 'tollgate-events-contract-'));
  afterAll(() => rmSync(contractDir, { recursive: true, force: true }));

  describeEventBusContract(
    'InProcessEventBus on a data dir',
    () => new InProcessEventBus({ dataDir: contractDir, logger: silentEventBusLogger }),
    { restartable: true },
  );
});

describe('InProcessEventBus persistence', () => {
  let dataDir: string;
  const open = () => new InProcessEventBus({ dataDir, logger: silentEventBusLogger });
  const partitionDir = (topic: string, partition: number) =>
    join(dataDir, 'topics', topic, String(partition));
  const segmentFiles = (topic: string, partition: number) =>
    readdirSync(partitionDir(topic, partition))
      .sort()
      .map((name) => join(partitionDir(topic, partition), name));
  /** The partition's only segment (a compacted topic's, or a plain one's before it rolls). */
  const partitionFile = (topic: string, partition: number) => {
    const files = segmentFiles(topic, partition);
    expect(files).toHaveLength(1);
    return files[0];
  };
  const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
  /** Subscribes a group (billing to usage unless told) and collects the records it is handed. */
  const collect = async (
    bus: InProcessEventBus,
    {
      groupId = 'billing',
      topic = 'usage',
      fromBeginning,
    }: { groupId?: string; topic?: string; fromBeginning?: boolean } = {},
  ) => {
    const records: EventRecord[] = [];
    const subscription = await bus.subscribe({
      groupId,
      topics: [topic],
      fromBeginning,
      handler: async (batch) => void records.push(...batch),
    });
    return { records, subscription };
  };
  const partitionLines = (topic: string, partition: number) => segmentFiles(topic, partition).flatMap(lines);

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tollgate-events-persistence-'));
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('ignores a torn last line and keeps appending cleanly after it', async () => {
    const first = open();
    await first.ensureTopics([{ name: 'prices', compacted: true, partitions: 1 }]);
    await first.publish([
      { topic: 'prices', key: 'gpt', value: 1 },
      { topic: 'prices', key: 'claude', value: 2 },
    ]);
    await first.close();
    appendFileSync(partitionFile('prices', 0), '{"o":2,"k":"gpt","v":99,"h":{'); // crash mid-write

    const second = open();
    const table = await second.table<number>('prices');
    expect(Object.fromEntries(table.entries())).toEqual({ gpt: 1, claude: 2 });
    await second.publish([{ topic: 'prices', key: 'gemini', value: 3 }]);
    await second.close();

    const third = open();
    const reread = await third.table<number>('prices');
    expect(Object.fromEntries(reread.entries())).toEqual({ gpt: 1, claude: 2, gemini: 3 });
    expect(lines(partitionFile('prices', 0))).toHaveLength(3);
    await third.close();
  });

  it('compacts a compacted topic on load and keeps offsets growing', async () => {
    const first = open();
    await first.ensureTopics([{ name: 'balances', compacted: true, partitions: 1 }]);
    for (let i = 1; i <= 5; i++) await first.publish([{ topic: 'balances', key: 'user-1', value: i }]);
    await first.publish([{ topic: 'balances', key: 'user-2', value: 7 }]);
    await first.close();
    expect(lines(partitionFile('balances', 0))).toHaveLength(6);

    const second = open();
    expect(lines(partitionFile('balances', 0))).toHaveLength(2);
    const { records: seen } = await collect(second, { groupId: 'reader', topic: 'balances' });
    await second.publish([{ topic: 'balances', key: 'user-1', value: 6 }]);
    await waitFor(() => seen.length === 3);
    expect(seen.map((record) => [record.offset, record.value])).toEqual([
      ['4', 5],
      ['5', 7],
      ['6', 6],
    ]);
    await second.close();
  });

  it('compacts a busy compacted topic while running', async () => {
    const bus = open();
    await bus.ensureTopics([{ name: 'balances', compacted: true, partitions: 1 }]);
    for (let round = 0; round < 30; round++) {
      await bus.publish(
        Array.from({ length: 100 }, (_, i) => ({ topic: 'balances', key: `user-${i % 4}`, value: round })),
      );
    }
    await bus.close();
    expect(lines(partitionFile('balances', 0)).length).toBeLessThan(1500);
    const reopened = open();
    const table = await reopened.table<number>('balances');
    expect(Object.fromEntries(table.entries())).toEqual({
      'user-0': 29,
      'user-1': 29,
      'user-2': 29,
      'user-3': 29,
    });
    await reopened.close();
  });

  it('keeps committing offsets to the file after rewriting it', async () => {
    const first = open();
    await first.ensureTopics([{ name: 'usage', partitions: 1 }]);
    let handled: () => void = () => undefined;
    const subscription = await first.subscribe({
      groupId: 'billing',
      topics: ['usage'],
      handler: async () => handled(),
    });
    // One commit per record: past 1000 lines the offsets file is rewritten to a line per partition.
    for (let i = 0; i < 1200; i++) {
      const done = new Promise<void>((resolve) => (handled = resolve));
      await first.publish([{ topic: 'usage', key: 'user', value: i }]);
      await done;
    }
    await subscription.stop();
    await first.close();
    expect(lines(join(dataDir, 'offsets.jsonl')).length).toBeLessThan(1000);

    const second = open();
    const { records: resumed } = await collect(second);
    await second.publish([{ topic: 'usage', key: 'user', value: 'next' }]);
    await waitFor(() => resumed.length > 0);
    expect(resumed.map((record) => record.value)).toEqual(['next']);
    await second.close();
  });

  it('trims a plain topic to its retention but keeps what a group has not consumed', async () => {
    const bus = new InProcessEventBus({
      dataDir,
      logger: silentEventBusLogger,
      retainRecordsPerPartition: 100,
    });
    await bus.ensureTopics([{ name: 'usage', partitions: 1 }]);
    const { records: consumed, subscription } = await collect(bus);
    for (let i = 0; i < 25; i++) {
      await bus.publish(
        Array.from({ length: 100 }, (_, j) => ({ topic: 'usage', key: 'user', value: i * 100 + j })),
      );
    }
    await waitFor(() => consumed.length === 2500);
    await subscription.stop();
    // The group stopped where it had read to: the records published next it has not consumed.
    for (let i = 0; i < 30; i++) {
      await bus.publish(Array.from({ length: 100 }, (_, j) => ({ topic: 'usage', key: 'user', value: j })));
    }
    await bus.close();
    expect(consumed.map((record) => record.value)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    // The group stopped at 2500: every record from there on stays, the segments before it went whole.
    const kept = partitionLines('usage', 0).map((line) => (JSON.parse(line) as { o: number }).o);
    expect(kept).toEqual(Array.from({ length: 3000 }, (_, i) => 2500 + i));
  });

  it('never hands out an offset a group has committed, even when the log lost its tail', async () => {
    const first = open();
    await first.ensureTopics([{ name: 'usage', partitions: 1 }]);
    await first.publish(['a', 'b', 'c'].map((value) => ({ topic: 'usage', key: 'user', value })));
    const { records: seen, subscription } = await collect(first);
    await waitFor(() => seen.length === 3);
    await subscription.stop();
    await first.close();
    const file = partitionFile('usage', 0);
    writeFileSync(file, `${lines(file)[0]}\n`); // the last two records are gone

    const second = open();
    const { records: resumed } = await collect(second);
    await second.publish([{ topic: 'usage', key: 'user', value: 'd' }]);
    await waitFor(() => resumed.length === 1);
    expect(resumed.map((record) => [record.offset, record.value])).toEqual([['3', 'd']]);
    await second.close();
  });

  it('rolls a plain topic into segments, deletes the old ones whole, and resumes after a torn tail', async () => {
    const withRetention = () =>
      new InProcessEventBus({ dataDir, logger: silentEventBusLogger, retainRecordsPerPartition: 8 });
    const first = withRetention();
    await first.ensureTopics([{ name: 'usage', partitions: 1 }]);
    const { records: seen, subscription } = await collect(first);
    for (let i = 0; i < 30; i++) await first.publish([{ topic: 'usage', key: 'user', value: i }]);
    await waitFor(() => seen.length === 30);
    await subscription.stop();
    await first.close();
    // Segments of two records (a quarter of 8); the oldest went whole, the newest eight and more stay.
    const names = readdirSync(partitionDir('usage', 0)).sort();
    expect(names.every((name) => /^\d{20}\.jsonl$/.test(name))).toBe(true);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names.length).toBeLessThanOrEqual(5);
    const kept = partitionLines('usage', 0).map((line) => (JSON.parse(line) as { o: number }).o);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 30 - kept.length + i));
    expect(Number(names[0].slice(0, 20))).toBe(kept[0]);
    const last = segmentFiles('usage', 0).at(-1)!;
    appendFileSync(last, '{"o":30,"k":"user","v":30,"h":{'); // crash mid-write

    const second = withRetention();
    const { records: resumed } = await collect(second);
    await second.publish([{ topic: 'usage', key: 'user', value: 'next' }]);
    await waitFor(() => resumed.length === 1);
    expect(resumed.map((record) => [record.offset, record.value])).toEqual([['30', 'next']]);
    await second.close();
    expect(
      partitionLines('usage', 0)
        .map((line) => (JSON.parse(line) as { o: number }).o)
        .at(-1),
    ).toBe(30);
  });

  it('moves a partition file of the layout before segments into its first segment, records and offsets kept', async () => {
    // The layout before segments: topics/<topic>/<partition>.jsonl, with a torn last line.
    const topicDir = join(dataDir, 'topics', 'usage');
    mkdirSync(topicDir, { recursive: true });
    writeFileSync(join(topicDir, 'topic.json'), '{"compacted":false,"partitions":2}\n');
    const line = (o: number) => `{"o":${o},"k":"user","v":{"n":${o}},"h":{},"t":${1_700_000_000_000 + o}}\n`;
    writeFileSync(join(topicDir, '0.jsonl'), `${[4, 5, 6, 7].map(line).join('')}{"o":8,"k":`);
    writeFileSync(join(topicDir, '1.jsonl'), '');
    writeFileSync(join(dataDir, 'offsets.jsonl'), '{"g":"billing","t":"usage","p":0,"o":6}\n');

    const bus = open();
    const { records: resumed } = await collect(bus);
    await bus.publish([{ topic: 'usage', key: 'user', value: { n: 8 } }]);
    await waitFor(() => resumed.some((record) => record.offset === '8'));
    expect(
      resumed.filter((record) => record.partition === 0).map((record) => [record.offset, record.value]),
    ).toEqual([
      ['6', { n: 6 }],
      ['7', { n: 7 }],
      ['8', { n: 8 }],
    ]);
    await bus.close();
    expect(readdirSync(topicDir).sort()).toEqual(['0', '1', 'topic.json']);
    expect(readdirSync(partitionDir('usage', 0))).toEqual(['00000000000000000004.jsonl']);
    expect(partitionLines('usage', 0).map((l) => (JSON.parse(l) as { o: number }).o)).toEqual([
      4, 5, 6, 7, 8,
    ]);

    // And a compacted topic of that layout reads as the same table.
    const prices = join(dataDir, 'topics', 'prices');
    mkdirSync(prices, { recursive: true });
    writeFileSync(join(prices, 'topic.json'), '{"compacted":true,"partitions":1}\n');
    writeFileSync(
      join(prices, '0.jsonl'),
      '{"o":0,"k":"gpt","v":1,"h":{},"t":0}\n{"o":1,"k":"gpt","v":2,"h":{},"t":0}\n{"o":2,"k":"claude","v":3,"h":{},"t":0}\n',
    );
    const reopened = open();
    const table = await reopened.table<number>('prices');
    expect(Object.fromEntries(table.entries())).toEqual({ gpt: 2, claude: 3 });
    await reopened.close();
    expect(lines(partitionFile('prices', 0))).toHaveLength(2);
  });

  it('refuses a second bus on a data dir that is in use', async () => {
    const first = open();
    expect(() => open()).toThrow(/already open/);
    await first.close();
    const second = open();
    await second.close();
  });

  it('opens a data dir whose pid lock file from older versions names a running process (pid reused)', async () => {
    // Another live process, as when a killed holder's pid was reused after a restart (not this
    // process's own pid: the older pid lock took over a file naming its own process).
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      expect(other.pid).toEqual(expect.any(Number));
      process.kill(other.pid!, 0); // throws unless it runs
      writeFileSync(join(dataDir, 'LOCK'), String(other.pid));

      const bus = open();
      await bus.ensureTopics([{ name: 'usage', partitions: 1 }]);
      await bus.publish([{ topic: 'usage', key: 'user', value: 'written' }]);
      const { records: seen, subscription } = await collect(bus, { fromBeginning: true });
      await waitFor(() => seen.length === 1);
      expect(seen.map((record) => record.value)).toEqual(['written']);
      await subscription.stop();
      await bus.close();
    } finally {
      other.kill();
    }
  });

  it('refuses to publish to a topic that was never created', async () => {
    const bus = open();
    await expect(bus.publish([{ topic: 'missing', key: 'k', value: 1 }])).rejects.toThrow(/ensureTopics/);
    await bus.close();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
