import { LockMode, QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../accounts/account.entity';

/**
 * Opens accounts that identity.user has not opened yet (the user exists: the gateway or a service
 * vouched for them) and locks them in ascending id order, the order LedgerService locks in, so
 * money moving between several accounts never deadlocks.
 */
export async function openAndLockAccounts(
  em: EntityManager,
  userIds: readonly number[],
): Promise<Map<number, Account>> {
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  await em.execute(
    `insert into accounts (user_id) values ${ids.map(() => '(?)').join(', ')} on conflict (user_id) do nothing`,
    ids,
  );
  const accounts = await em.find(
    Account,
    { userId: { $in: ids } },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { userId: QueryOrder.ASC }, refresh: true },
  );
  return new Map(accounts.map((account) => [account.userId, account]));
}
