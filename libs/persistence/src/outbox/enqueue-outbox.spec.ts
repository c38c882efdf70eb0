import type { EntityManager } from '@mikro-orm/core';
import { enqueueOutbox } from './enqueue-outbox';

/** An EntityManager whose transaction records each raw statement (the real database: the persistence contract). */
function aTransaction(inTransaction = true) {
  const statements: { sql: string; bindings: unknown[] }[] = [];
  const trx = {
    raw: async (sql: string, bindings: unknown[]) => {
      statements.push({ sql, bindings });
      return { rows: [] };
    },
  };
  const em = {
    isInTransaction: () => inTransaction,
    getTransactionContext: () => (inTransaction ? trx : undefined),
  } as unknown as EntityManager;
  return { em, statements };
}

describe('enqueueOutbox', () => {
  it('inserts a batch in one statement with the events bound as one json parameter, in order, never in the SQL text', async () => {
    const { em, statements } = aTransaction();
    const events = [
      {
        topic: 'billing.balance',
        key: '2',
        value: { note: "O'Brien \\ \u00e9" },
        headers: { 'event-id': 'e1' },
      },
      { topic: 'identity.token', key: '7', value: null },
      { topic: 'billing.balance', key: '1', value: 12 },
    ];

    await enqueueOutbox(em, events);

    expect(statements).toHaveLength(1);
    const [{ sql, bindings }] = statements as [{ sql: string; bindings: unknown[] }];
    expect(sql).not.toContain('Brien');
    expect(bindings).toHaveLength(1);
    expect(JSON.parse(bindings[0] as string)).toEqual([
      {
        topic: 'billing.balance',
        key: '2',
        value: { note: "O'Brien \\ \u00e9" },
        headers: { 'event-id': 'e1' },
      },
      { topic: 'identity.token', key: '7', value: null, headers: {} },
      { topic: 'billing.balance', key: '1', value: 12, headers: {} },
    ]);
  });

  it('writes nothing for no events and refuses to run outside a transaction', async () => {
    const idle = aTransaction();
    await enqueueOutbox(idle.em, []);
    expect(idle.statements).toEqual([]);

    const outside = aTransaction(false);
    await expect(enqueueOutbox(outside.em, [{ topic: 't', key: '1', value: 1 }])).rejects.toThrow(
      /inside the transaction/,
    );
    expect(outside.statements).toEqual([]);
  });
});
