import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { CreateTokenRequest, UpdateTokenRequest } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { identityTokenEvent, identityTokenTombstone } from './token-events';
import { Token } from './token.entity';

export interface NewToken extends CreateTokenRequest {
  userId: number;
  keyHash: string;
  keyEncrypted: string;
  keyMasked: string;
}

export type TokenChanges = Omit<UpdateTokenRequest, 'id'>;

/** `%` and `_` in a keyword match themselves. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The tokens table. Every read and change is scoped to the owner, and every change is published
 * whole on identity.token in the same transaction.
 */
@Injectable()
export class TokensRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  findOwned(userId: number, id: number): Promise<Token | null> {
    return this.em.fork().findOne(Token, { id, userId });
  }

  async page(
    userId: number,
    page: number,
    pageSize: number,
    keyword?: string,
  ): Promise<{ items: Token[]; total: number }> {
    const where = keyword ? { userId, name: { $ilike: likePattern(keyword) } } : { userId };
    const [items, total] = await this.em.fork().findAndCount(Token, where, {
      orderBy: { id: 'desc' },
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { items, total };
  }

  async create(input: NewToken): Promise<Token> {
    const token = await this.em.fork().transactional(async (tx) => {
      const created = tx.create(Token, {
        userId: input.userId,
        name: input.name,
        keyHash: input.keyHash,
        keyEncrypted: input.keyEncrypted,
        keyMasked: input.keyMasked,
        expiredTime: input.expired_time,
        remainQuota: input.remain_quota,
        unlimitedQuota: input.unlimited_quota,
        modelLimitsEnabled: input.model_limits_enabled,
        modelLimits: input.model_limits,
        allowIps: input.allow_ips,
        group: input.group,
        rpmLimit: input.rpm_limit,
        tpmLimit: input.tpm_limit,
        concurrencyLimit: input.concurrency_limit,
        modelAliases: input.model_aliases,
      });
      await tx.flush();
      await enqueueOutbox(tx, [identityTokenEvent(created)]);
      return created;
    });
    this.outbox.nudge();
    return token;
  }

  /** The changed key, or null when the user has no key with this id. */
  async update(userId: number, id: number, changes: TokenChanges): Promise<Token | null> {
    const token = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Token, { id, userId });
      if (!found) return null;
      if (changes.name !== undefined) found.name = changes.name;
      if (changes.status !== undefined) found.status = changes.status;
      if (changes.expired_time !== undefined) found.expiredTime = changes.expired_time;
      if (changes.remain_quota !== undefined) found.remainQuota = changes.remain_quota;
      if (changes.unlimited_quota !== undefined) found.unlimitedQuota = changes.unlimited_quota;
      if (changes.model_limits_enabled !== undefined) found.modelLimitsEnabled = changes.model_limits_enabled;
      if (changes.model_limits !== undefined) found.modelLimits = changes.model_limits;
      if (changes.allow_ips !== undefined) found.allowIps = changes.allow_ips;
      if (changes.group !== undefined) found.group = changes.group;
      if (changes.rpm_limit !== undefined) found.rpmLimit = changes.rpm_limit;
      if (changes.tpm_limit !== undefined) found.tpmLimit = changes.tpm_limit;
      if (changes.concurrency_limit !== undefined) found.concurrencyLimit = changes.concurrency_limit;
      if (changes.model_aliases !== undefined) found.modelAliases = changes.model_aliases;
      found.updatedAt = new Date();
      await tx.flush();
      await enqueueOutbox(tx, [identityTokenEvent(found)]);
      return found;
    });
    if (token) this.outbox.nudge();
    return token;
  }

  /** True when the user's key existed and is gone, its tombstone queued. */
  async delete(userId: number, id: number): Promise<boolean> {
    const deleted = await this.em.fork().transactional(async (tx) => {
      const removed = await tx.nativeDelete(Token, { id, userId });
      if (removed === 0) return false;
      await enqueueOutbox(tx, [identityTokenTombstone(id)]);
      return true;
    });
    if (deleted) this.outbox.nudge();
    return deleted;
  }
}
