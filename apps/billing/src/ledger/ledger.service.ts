import { LockMode, QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { enqueueOutbox } from '@tollgate/persistence';
import { Account } from '../accounts/account.entity';
import { billingBalanceEvent } from '../accounts/balance-events';
import { accountDeltas, assertIntegerPostings, uniqueByKey, type LedgerPosting } from './posting';

/** Keeps PostgreSQL's 65 535 bind parameters out of reach (5 per entry). */
const ENTRIES_PER_INSERT = 5000;

export interface PostingResult {
  /** Idempotency keys that became entries now; the others had been posted before. */
  postedKeys: string[];
  /** Accounts whose balance changed, as they are after the posting. */
  changedAccounts: Account[];
}

/**
 * Writes ledger entries and the balances they move, inside the caller's transaction, so the
 * balance always equals the sum of its entries. Callers nudge the outbox relay after commit.
 */
@Injectable()
export class LedgerService {
  async post(em: EntityManager, postings: readonly LedgerPosting[]): Promise<PostingResult> {
    if (!em.isInTransaction()) throw new Error('LedgerService.post must run inside a transaction');
    assertIntegerPostings(postings);
    const unique = uniqueByKey(postings);
    if (unique.length === 0) return { postedKeys: [], changedAccounts: [] };

    const accounts = await this.lockAccounts(em, [...new Set(unique.map((p) => p.userId))]);
    const postedKeys = await this.insertNewEntries(em, unique);
    const posted = new Set(postedKeys);
    const deltas = accountDeltas(unique.filter((p) => posted.has(p.idempotencyKey)));

    const changedAccounts = accounts.filter((account) => deltas.has(account.userId));
    for (const account of changedAccounts) {
      const delta = deltas.get(account.userId)!;
      account.quota += delta.quota;
      account.usedQuota += delta.usedQuota;
      account.requestCount += delta.requestCount;
      account.version += 1;
    }
    await em.flush();
    await enqueueOutbox(em, changedAccounts.map(billingBalanceEvent));
    return { postedKeys, changedAccounts };
  }

  /** Locks in ascending user id order, so concurrent postings to the same accounts cannot deadlock. */
  private async lockAccounts(em: EntityManager, userIds: number[]): Promise<Account[]> {
    const accounts = await em.find(
      Account,
      { userId: { $in: userIds } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { userId: QueryOrder.ASC }, refresh: true },
    );
    if (accounts.length !== userIds.length) {
      const found = new Set(accounts.map((a) => a.userId));
      const missing = userIds.filter((id) => !found.has(id));
      throw new Error(`cannot post to users without an account: ${missing.join(', ')}`);
    }
    return accounts;
  }

  /**
   * ON CONFLICT DO NOTHING skips keys already posted without a unique violation, which would
   * abort the caller's transaction; RETURNING tells which keys are new.
   */
  private async insertNewEntries(em: EntityManager, postings: readonly LedgerPosting[]): Promise<string[]> {
    const postedKeys: string[] = [];
    for (let start = 0; start < postings.length; start += ENTRIES_PER_INSERT) {
      const chunk = postings.slice(start, start + ENTRIES_PER_INSERT);
      const inserted = await em.execute<{ idempotency_key: string }[]>(
        `insert into ledger_entries (user_id, kind, amount, idempotency_key, note)
         values ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}
         on conflict (idempotency_key) do nothing returning idempotency_key`,
        chunk.flatMap((p) => [p.userId, p.kind, p.amount, p.idempotencyKey, p.note ?? '']),
        'all',
      );
      postedKeys.push(...inserted.map((row) => row.idempotency_key));
    }
    return postedKeys;
  }
}
