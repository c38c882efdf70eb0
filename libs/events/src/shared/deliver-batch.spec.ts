import type { EventRecord } from '../port/event-bus.port';
import { backoffPolicy } from './backoff';
import {
  decodeRecord,
  deliverBatch,
  deliverRecords,
  type DeliveryContext,
  type ReadRecord,
} from './deliver-batch';
import { deliveryPolicy, retryTimeBeforeDeadLetterMs } from './validate-events';

function records(...offsets: number[]): EventRecord<string>[] {
  return offsets.map((offset) => ({
    topic: 't',
    partition: 0,
    offset: String(offset),
    key: `k${offset}`,
    value: `v${offset}`,
    headers: {},
    timestamp: 0,
  }));
}

function harness(handler: (batch: EventRecord<string>[]) => Promise<void>) {
  const log = {
    calls: [] as string[][],
    commits: [] as string[],
    deadLetters: [] as string[],
    waits: [] as number[],
  };
  let active = true;
  const context: DeliveryContext<string> = {
    handler: async (batch) => {
      log.calls.push(batch.map((r) => r.offset));
      await handler(batch);
    },
    commit: async (record) => void log.commits.push(record.offset),
    deadLetter: async (record) => void log.deadLetters.push(record.offset),
    wait: async (ms) => {
      log.waits.push(ms);
      return active;
    },
    isActive: () => active,
  };
  return { log, context, stop: () => (active = false) };
}

const policy = { maxAttempts: 3, backoff: backoffPolicy({ initialDelayMs: 10, maxDelayMs: 1000 }) };

describe('deliverBatch', () => {
  it('commits the last record after the handler succeeds', async () => {
    const { log, context } = harness(async () => undefined);
    await expect(deliverBatch(records(0, 1, 2), policy, context)).resolves.toBe('done');
    expect(log.calls).toEqual([['0', '1', '2']]);
    expect(log.commits).toEqual(['2']);
  });

  it('retries a failing batch with doubling delays and commits only after success', async () => {
    let failures = 2;
    const { log, context } = harness(async () => {
      if (failures-- > 0) throw new Error('transient');
    });
    await expect(deliverBatch(records(5), policy, context)).resolves.toBe('done');
    expect(log.calls).toHaveLength(3);
    expect(log.waits).toEqual([10, 20]);
    expect(log.commits).toEqual(['5']);
    expect(log.deadLetters).toEqual([]);
  });

  it('waits retryTimeBeforeDeadLetterMs in all before it dead-letters, with the defaults and with given options', async () => {
    for (const options of [{}, { maxAttempts: 3, backoff: { initialDelayMs: 10, maxDelayMs: 15 } }]) {
      const { log, context } = harness(async () => {
        throw new Error('poison');
      });
      await deliverBatch(records(7), deliveryPolicy(options), context);
      expect(log.deadLetters).toEqual(['7']);
      expect(log.waits.reduce((sum, ms) => sum + ms, 0)).toBe(retryTimeBeforeDeadLetterMs(options));
    }
    expect(retryTimeBeforeDeadLetterMs()).toBe(200 + 400 + 800 + 1_600);
  });

  it('dead-letters a lone record after maxAttempts and moves on', async () => {
    const { log, context } = harness(async () => {
      throw new Error('poison');
    });
    await expect(deliverBatch(records(7), policy, context)).resolves.toBe('done');
    expect(log.calls).toHaveLength(3);
    expect(log.deadLetters).toEqual(['7']);
    expect(log.commits).toEqual(['7']);
  });

  it('isolates a failing batch so only the records that fail alone are dead-lettered', async () => {
    const { log, context } = harness(async (batch) => {
      if (batch.some((r) => r.offset === '2')) throw new Error('poison');
    });
    await expect(deliverBatch(records(1, 2, 3), policy, context)).resolves.toBe('done');
    expect(log.calls.slice(3)).toEqual([['1'], ['2'], ['3']]);
    expect(log.deadLetters).toEqual(['2']);
    expect(log.commits).toEqual(['1', '2', '3']);
  });

  it('stops during a retry wait without committing', async () => {
    const h = harness(async () => {
      h.stop();
      throw new Error('fails while stopping');
    });
    await expect(deliverBatch(records(1), policy, h.context)).resolves.toBe('stopped');
    expect(h.log.calls).toHaveLength(1);
    expect(h.log.commits).toEqual([]);
    expect(h.log.deadLetters).toEqual([]);
  });

  describe('with transient failures recognised', () => {
    const databaseDown = new Error('connect ECONNREFUSED');
    const transientPolicy = { ...policy, isTransient: (error: unknown) => error === databaseDown };

    it('retries past maxAttempts while the failure is transient, and dead-letters nothing', async () => {
      let failures = 10;
      const { log, context } = harness(async () => {
        if (failures-- > 0) throw databaseDown;
      });
      await expect(deliverBatch(records(0, 1), transientPolicy, context)).resolves.toBe('done');
      expect(log.calls).toHaveLength(11);
      expect(log.deadLetters).toEqual([]);
      expect(log.commits).toEqual(['1']);
    });

    it('still dead-letters a record that fails on its own for another reason', async () => {
      const { log, context } = harness(async (batch) => {
        if (batch.some((r) => r.offset === '1')) throw new Error('invalid record');
      });
      await expect(deliverBatch(records(0, 1, 2), transientPolicy, context)).resolves.toBe('done');
      expect(log.deadLetters).toEqual(['1']);
      expect(log.commits).toEqual(['0', '1', '2']);
    });

    it('keeps retrying a record whose transient failure came while records were tried one by one', async () => {
      let transient = 3;
      const { log, context } = harness(async (batch) => {
        if (batch.length > 1) throw new Error('invalid record');
        if (batch[0]!.offset === '1' && transient-- > 0) throw databaseDown;
      });
      await expect(deliverBatch(records(0, 1), transientPolicy, context)).resolves.toBe('done');
      expect(log.deadLetters).toEqual([]);
      expect(log.commits).toEqual(['0', '1']);
    });

    it('stops retrying when the consumer stops', async () => {
      const { log, context, stop } = harness(async () => {
        if (log.calls.length >= 6) stop();
        throw databaseDown;
      });
      await expect(deliverBatch(records(0), transientPolicy, context)).resolves.toBe('stopped');
      expect(log.deadLetters).toEqual([]);
      expect(log.commits).toEqual([]);
    });
  });
});

describe('decodeRecord', () => {
  const [record] = records(0);
  const tombstone = { ...record!, value: null };

  it("hands the value, a tombstone's null included, to decode", () => {
    const seen: unknown[] = [];
    const decode = (value: unknown) => {
      seen.push(value);
      return { decoded: value };
    };
    expect(decodeRecord(record!, decode)).toEqual({
      ok: true,
      record: { ...record, value: { decoded: 'v0' } },
    });
    expect(decodeRecord(tombstone, decode)).toEqual({
      ok: true,
      record: { ...tombstone, value: { decoded: null } },
    });
    expect(seen).toEqual(['v0', null]);
  });

  it('marks a record that decode throws for as one that cannot be handled, keeping its value', () => {
    const invalid = new Error('not a v1 event');
    const read = decodeRecord(record!, () => {
      throw invalid;
    });
    expect(read).toEqual({ ok: false, record, error: invalid });
  });

  it('leaves the record as it is without decode', () => {
    expect(decodeRecord(record!, undefined)).toEqual({ ok: true, record });
  });
});

describe('deliverRecords', () => {
  const invalid = new Error('not a v1 event');
  const read = (...offsets: number[]): ReadRecord<string>[] =>
    records(...offsets).map((record) =>
      record.offset.startsWith('9') ? { ok: false, record, error: invalid } : { ok: true, record },
    );

  it('dead-letters a record that cannot be handled at once, handles the rest and commits in order', async () => {
    const deadLettered: Array<{ offset: string; error: unknown; attempts: number }> = [];
    const { log, context } = harness(async () => undefined);
    context.deadLetter = async (record, error, attempts) => {
      log.deadLetters.push(record.offset);
      deadLettered.push({ offset: record.offset, error, attempts });
    };
    await expect(deliverRecords(read(1, 2, 90, 3, 91), policy, context)).resolves.toBe('done');
    expect(log.calls).toEqual([['1', '2'], ['3']]);
    expect(deadLettered).toEqual([
      { offset: '90', error: invalid, attempts: 0 },
      { offset: '91', error: invalid, attempts: 0 },
    ]);
    expect(log.commits).toEqual(['2', '90', '3', '91']);
    expect(log.waits).toEqual([]);
  });

  it('never retries a record that cannot be handled, even when every failure is transient', async () => {
    const { log, context } = harness(async () => undefined);
    const retryForever = { ...policy, isTransient: () => true };
    await expect(deliverRecords(read(90), retryForever, context)).resolves.toBe('done');
    expect(log.calls).toEqual([]);
    expect(log.deadLetters).toEqual(['90']);
    expect(log.commits).toEqual(['90']);
  });

  it('stops before the record that cannot be handled when the consumer stops during the records before it', async () => {
    const h = harness(async () => {
      h.stop();
      throw new Error('fails while stopping');
    });
    await expect(deliverRecords(read(1, 90, 2), policy, h.context)).resolves.toBe('stopped');
    expect(h.log.calls).toEqual([['1']]);
    expect(h.log.deadLetters).toEqual([]);
    expect(h.log.commits).toEqual([]);
  });
});
