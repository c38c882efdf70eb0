import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  normalizeDecimal,
  type AffiliateSummary,
  type AffiliateTransferResult,
  type IdentityUser,
} from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import { Account } from '../accounts/account.entity';
import { billingBalanceEvent } from '../accounts/balance-events';
import type { BillingConfig } from '../config';
import { localizedException } from '../i18n/messages';
import { BillingSettings } from '../settings/billing-settings';
import { percentOf } from '../exchange-rate/ruble-quota';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LedgerService } from '../ledger/ledger.service';
import { openAndLockAccounts } from '../payments/open-account';

/**
 * The affiliate programme: an inviter earns AffiliateRewardPercent (else AFFILIATE_REWARD_PERCENT) of each successful top-up of
 * the users they invited, as affiliate quota, and moves it to their balance when they like. Both
 * movements are entries of the append-only affiliate ledger, so aff_quota is the sum of its entries.
 */
@Injectable()
export class AffiliateService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxRelay,
    @InjectServiceConfig() private readonly config: BillingConfig,
    private readonly settings: BillingSettings,
  ) {}

  /**
   * Remembers who invited whom from users as identity.user carries them. The first inviter seen
   * stays: a later change of the user record cannot move an invitee's rewards to someone else.
   * Idempotent.
   */
  async rememberInviters(users: readonly IdentityUser[]): Promise<void> {
    const links = new Map<number, number>();
    for (const user of users) {
      if (user.inviter_id !== null && user.inviter_id !== user.id && !links.has(user.id)) {
        links.set(user.id, user.inviter_id);
      }
    }
    if (links.size === 0) return;
    const rows = [...links];
    await this.em.fork().execute(
      `insert into affiliate_links (user_id, inviter_id) values ${rows.map(() => '(?, ?)').join(', ')}
       on conflict (user_id) do update
         set inviter_id = coalesce(affiliate_links.inviter_id, excluded.inviter_id), updated_at = now()`,
      rows.flat(),
    );
  }

  async inviterOf(em: EntityManager, userId: number): Promise<number | undefined> {
    const [row] = await em.execute<{ inviter_id: number | null }[]>(
      'select inviter_id from affiliate_links where user_id = ?',
      [userId],
    );
    return row?.inviter_id ?? undefined;
  }

  /**
   * Credits the inviter's share of a top-up, once per payment, inside the payment's transaction.
   * The inviter's account must already be locked by the caller (see openAndLockAccounts).
   */
  async reward(
    em: EntityManager,
    inviterId: number,
    inviteeId: number,
    topUpQuota: number,
    paymentId: number,
  ) {
    const amount = percentOf(topUpQuota, this.settings.affiliateRewardPercent());
    if (amount <= 0 || inviterId === inviteeId) return;
    const inserted = await em.execute<{ id: string }[]>(
      `insert into affiliate_entries (user_id, kind, amount, idempotency_key, invitee_id, payment_id)
       values (?, 'reward', ?, ?, ?, ?) on conflict (idempotency_key) do nothing returning id`,
      [inviterId, amount, rewardKey(paymentId), inviteeId, paymentId],
    );
    if (inserted.length === 0) return;
    const [inviter] = (await openAndLockAccounts(em, [inviterId])).values();
    await this.changeAffiliateQuota(em, inviter!, amount);
  }

  /** Earned (or, negative, taken back) affiliate quota, published with the balance. */
  private async changeAffiliateQuota(em: EntityManager, account: Account, amount: number): Promise<void> {
    account.affQuota += amount;
    account.affHistoryQuota += amount;
    account.version += 1;
    account.updatedAt = new Date();
    await em.flush();
    await enqueueOutbox(em, [billingBalanceEvent(account)]);
  }

  async summary(userId: number): Promise<AffiliateSummary> {
    const em = this.em.fork();
    const [account, [invitees]] = await Promise.all([
      em.findOne(Account, { userId }),
      em.execute<{ count: string }[]>('select count(*) as count from affiliate_links where inviter_id = ?', [
        userId,
      ]),
    ]);
    return {
      aff_quota: account?.affQuota ?? 0,
      aff_history_quota: account?.affHistoryQuota ?? 0,
      invitees: Number(invitees!.count),
      reward_percent: normalizeDecimal(this.settings.affiliateRewardPercent()),
      min_transfer_quota: this.config.AFFILIATE_MIN_TRANSFER_QUOTA,
    };
  }

  /**
   * Takes back the part of the reward `paymentId` earned that one refund stands for, once per
   * refund (`refundKey`), inside the refund's transaction (the inviter's account locked by the
   * caller). `share` gets the reward and what earlier refunds took back and answers this refund's
   * part. Affiliate quota may go below zero when the reward was already moved to the balance;
   * transfers then wait until new rewards cover it.
   */
  async reverseRewardShare(
    em: EntityManager,
    paymentId: number,
    refundKey: string,
    share: (reward: number, reversedBefore: number) => number,
  ): Promise<void> {
    const [reward] = await em.execute<{ user_id: number; amount: string; invitee_id: number }[]>(
      `select user_id, amount, invitee_id from affiliate_entries where idempotency_key = ?`,
      [rewardKey(paymentId)],
    );
    if (!reward) return;
    const [reversed] = await em.execute<{ total: string }[]>(
      `select coalesce(-sum(amount), 0) as total from affiliate_entries
       where payment_id = ? and kind = 'reward_reversal'`,
      [paymentId],
    );
    const amount = share(Number(reward.amount), Number(reversed?.total ?? 0));
    if (amount <= 0) return;
    const inserted = await em.execute<{ id: string }[]>(
      `insert into affiliate_entries (user_id, kind, amount, idempotency_key, invitee_id, payment_id)
       values (?, 'reward_reversal', ?, ?, ?, ?) on conflict (idempotency_key) do nothing returning id`,
      [
        reward.user_id,
        -amount,
        `payment:${paymentId}:affiliate_reward_reversal:${refundKey}`,
        reward.invitee_id,
        paymentId,
      ],
    );
    if (inserted.length === 0) return;
    const [inviter] = (await openAndLockAccounts(em, [reward.user_id])).values();
    await this.changeAffiliateQuota(em, inviter!, -amount);
  }

  /** Moves `quota` of the caller's affiliate quota to their balance. */
  async transfer(userId: number, quota: number, locale: Locale): Promise<AffiliateTransferResult> {
    const minimum = this.config.AFFILIATE_MIN_TRANSFER_QUOTA;
    if (quota < minimum) {
      throw localizedException(ErrorCode.ValidationFailed, 'affiliate_transfer_below_minimum', locale, {
        minimum,
      });
    }
    const result = await this.em.fork().transactional(async (tx) => {
      const account = (await openAndLockAccounts(tx, [userId])).get(userId)!;
      if (account.affQuota < quota) {
        throw localizedException(ErrorCode.ValidationFailed, 'affiliate_quota_insufficient', locale);
      }
      const key = `affiliate-transfer:${randomUUID()}`;
      await tx.execute(
        `insert into affiliate_entries (user_id, kind, amount, idempotency_key) values (?, 'transfer', ?, ?)`,
        [userId, -quota, key],
      );
      account.affQuota -= quota;
      await tx.flush();
      await this.ledger.post(tx, [
        { userId, kind: LedgerEntryKind.AffiliateTransfer, amount: quota, idempotencyKey: key },
      ]);
      return { quota: account.quota, aff_quota: account.affQuota, transferred: quota };
    });
    this.outbox.nudge();
    return result;
  }
}

const rewardKey = (paymentId: number): string => `payment:${paymentId}:affiliate_reward`;
