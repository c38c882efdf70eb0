import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { describeEventBusContract } from '../../test/contract/event-bus.contract';
import { InProcessEventBus } from '../in-process/in-process-event-bus';
import type { EventRecord } from '../port/event-bus.port';
import { silentEventBusLogger } from '../shared/logger';
import { BridgedEventBus } from './bridged-event-bus';
import { serveEventBus } from './event-bus-host';

/** A bridged bus whose other end (in this thread here; another thread in embedded mode) serves `owner`. */
function bridge(owner: InProcessEventBus) {
  const { port1, port2 } = new MessageChannel();
  serveEventBus(owner, port2);
  return { bus: new BridgedEventBus(port1), port: port1 };
}

/** For the contract suite, which closes the bus it was given: the owner closes with it. */
class BridgedToItsOwnBus extends BridgedEventBus {
  constructor(private readonly owner: InProcessEventBus) {
    const { port1, port2 } = new MessageChannel();
    super(port1);
    serveEventBus(owner, port2);
  }

  override async close(): Promise<void> {
    await super.close();
    await this.owner.close();
  }
}

describeEventBusContract(
  'BridgedEventBus to an InProcessEventBus in memory',
  () => new BridgedToItsOwnBus(new InProcessEventBus({ logger: silentEventBusLogger })),
);

describe('BridgedEventBus to an InProcessEventBus on a data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bridged-bus-contract-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  describeEventBusContract(
    'BridgedEventBus to an InProcessEventBus on a data dir',
    () => new BridgedToItsOwnBus(new InProcessEventBus({ dataDir, logger: silentEventBusLogger })),
    { restartable: true },
  );
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('BridgedEventBus', () => {
  let owner: InProcessEventBus;
  beforeEach(async () => {
    owner = new InProcessEventBus({ logger: silentEventBusLogger });
    await owner.ensureTopics([
      { name: 'usage', partitions: 2 },
      { name: 'prices', compacted: true, partitions: 1 },
    ]);
  });
  afterEach(() => owner.close());

  it("is one bus with the owner's: what either side publishes reaches the other's groups", async () => {
    const { bus } = bridge(owner);
    const bridgedSeen: EventRecord[] = [];
    const ownerSeen: EventRecord[] = [];
    await bus.subscribe({
      groupId: 'billing',
      topics: ['usage'],
      handler: async (b) => void bridgedSeen.push(...b),
    });
    await owner.subscribe({
      groupId: 'audit',
      topics: ['usage'],
      handler: async (b) => void ownerSeen.push(...b),
    });
    await owner.publish([{ topic: 'usage', key: 'u1', value: 'from the owner' }]);
    await bus.publish([{ topic: 'usage', key: 'u2', value: 'from the bridge' }]);
    await waitFor(() => bridgedSeen.length === 2 && ownerSeen.length === 2);
    expect(bridgedSeen.map((r) => r.value).sort()).toEqual(['from the bridge', 'from the owner']);
    expect(ownerSeen.map((r) => r.value).sort()).toEqual(['from the bridge', 'from the owner']);
    await bus.close();
  });

  it("rejects a publish the owner's bus refuses", async () => {
    const { bus } = bridge(owner);
    await expect(bus.publish([{ topic: 'missing', key: 'k', value: 1 }])).rejects.toThrow(/ensureTopics/);
    await bus.close();
  });

  it('sends the publishes of one turn of the event loop as one message', async () => {
    const { bus, port } = bridge(owner);
    const posted: unknown[] = [];
    const post = port.postMessage.bind(port);
    port.postMessage = (message: unknown) => {
      posted.push(message);
      post(message);
    };
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => bus.publish([{ topic: 'usage', key: `u${i}`, value: i }])),
    );
    expect(posted).toHaveLength(1);
    const lag = await owner.consumerLag('nobody', 'usage');
    expect(lag.reduce((sum, entry) => sum + entry.lag, 0)).toBe(40);
    await bus.close();
  });

  it('commits on the owner only after the bridged handler finished the batch', async () => {
    const { bus } = bridge(owner);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    await bus.subscribe({
      groupId: 'billing',
      topics: ['usage'],
      handler: async () => {
        calls++;
        await held;
      },
    });
    await owner.publish([{ topic: 'usage', key: 'u1', value: 1 }]);
    await waitFor(() => calls === 1);
    const total = async () => (await owner.consumerLag('billing', 'usage')).reduce((s, e) => s + e.lag, 0);
    await expect(total()).resolves.toBe(1);
    release();
    let lag = await total();
    for (let i = 0; i < 100 && lag > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      lag = await total();
    }
    expect(lag).toBe(0);
    await bus.close();
  });

  it('gives a batch in flight to the next member when the bridged thread goes away', async () => {
    const { bus, port } = bridge(owner);
    let calls = 0;
    await bus.subscribe({
      groupId: 'billing',
      topics: ['usage'],
      handler: () => {
        calls++;
        return new Promise<void>(() => undefined); // never finishes: the thread is about to end
      },
    });
    await owner.publish([{ topic: 'usage', key: 'u1', value: 'in flight' }]);
    await waitFor(() => calls === 1);
    port.close(); // as when the worker thread ends

    const next: EventRecord[] = [];
    await owner.subscribe({
      groupId: 'billing',
      topics: ['usage'],
      handler: async (b) => void next.push(...b),
    });
    await waitFor(() => next.length === 1);
    expect(next[0]!.value).toBe('in flight');
  });

  it("passes an in-process owner's records on as JSON text, parsed only on the bridged side", async () => {
    const { bus, port } = bridge(owner);
    const deliveries: Array<{ records: EventRecord[]; encoded?: true }> = [];
    port.on('message', (batch: Array<{ deliver?: number; records: EventRecord[]; encoded?: true }>) => {
      for (const message of batch) if (message.deliver !== undefined) deliveries.push(message);
    });
    const seen: EventRecord[] = [];
    await bus.subscribe({
      groupId: 'billing',
      topics: ['usage'],
      handler: async (b) => void seen.push(...b),
    });
    await owner.publish([{ topic: 'usage', key: 'u1', value: { tokens: 7, model: 'gpt' } }]);
    await waitFor(() => seen.length === 1);

    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      encoded: true,
      records: [{ value: '{"tokens":7,"model":"gpt"}' }],
    });
    expect(seen[0]!.value).toEqual({ tokens: 7, model: 'gpt' });
    await bus.close();
  });

  it('parses a record once for the groups of this thread that decode it; no group changes what another reads', async () => {
    const { bus } = bridge(owner);
    const text = '{"tokens":7,"price":{"input":"0.15"}}';
    interface Usage {
      tokens: number;
      price: { input: string };
    }
    // Decoders that build their own value, as zod's object schemas do.
    const copy = (value: unknown): Usage => {
      const usage = value as Usage;
      return { tokens: usage.tokens, price: { ...usage.price } };
    };
    const inputs: unknown[] = [];
    const seen: Record<string, Usage[]> = { auth: [], billing: [], admin: [] };
    // auth's decoder tries to change what it was given, and its handler changes what it decoded.
    await bus.subscribe<Usage>({
      groupId: 'auth',
      topics: ['usage'],
      decode: (value) => {
        inputs.push(value);
        try {
          (value as Usage).tokens = 999;
        } catch {
          // frozen: a strict-mode assignment throws
        }
        return copy(value);
      },
      handler: async (batch) => {
        for (const record of batch) {
          record.value!.tokens += 1;
          seen.auth.push(record.value!);
        }
      },
    });
    await bus.subscribe<Usage>({
      groupId: 'billing',
      topics: ['usage'],
      decode: (value) => (inputs.push(value), copy(value)),
      handler: async (batch) => void seen.billing.push(...batch.map((record) => record.value!)),
    });
    // A group without a decoder gets a value of its own, which it may change.
    await bus.subscribe<Usage>({
      groupId: 'admin',
      topics: ['usage'],
      handler: async (batch) => {
        for (const record of batch) {
          record.value!.price.input = 'changed';
          seen.admin.push(record.value!);
        }
      },
    });
    const value = JSON.parse(text) as Usage;
    const parse = jest.spyOn(JSON, 'parse');
    await owner.publish([{ topic: 'usage', key: 'u1', value }]);
    await waitFor(() => seen.auth.length + seen.billing.length + seen.admin.length === 3);
    const parsesOfTheRecord = parse.mock.calls.filter(([argument]) => argument === text).length;
    parse.mockRestore();

    expect(parsesOfTheRecord).toBe(2); // once for auth and billing, once for admin's own
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toBe(inputs[1]);
    expect(Object.isFrozen(inputs[0]) && Object.isFrozen((inputs[0] as Usage).price)).toBe(true);
    expect(seen.auth).toEqual([{ tokens: 8, price: { input: '0.15' } }]);
    expect(seen.billing).toEqual([{ tokens: 7, price: { input: '0.15' } }]);
    expect(seen.admin).toEqual([{ tokens: 7, price: { input: 'changed' } }]);
    await bus.close();
  });

  it("reads a compacted table of the owner's bus, with its later changes and tombstones", async () => {
    const { bus } = bridge(owner);
    await owner.publish([
      { topic: 'prices', key: 'gpt', value: { cents: 1 } },
      { topic: 'prices', key: 'claude', value: { cents: 2 } },
    ]);
    const table = await bus.table<number>('prices', (value) => (value as { cents: number }).cents);
    await table.caughtUp();
    expect(Object.fromEntries(table.entries())).toEqual({ gpt: 1, claude: 2 });
    await owner.publish([
      { topic: 'prices', key: 'gpt', value: { cents: 3 } },
      { topic: 'prices', key: 'claude', value: null },
    ]);
    await waitFor(() => table.get('gpt') === 3 && table.size === 1);
    await table.stop();
    await bus.close();
  });
});
