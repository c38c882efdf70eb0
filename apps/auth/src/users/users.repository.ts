import type { FilterQuery } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { changedFields, type OAuthProvider, type UserFilter } from '@tollgate/contracts';
import { enqueueOutbox, isUniqueViolation, OutboxRelay } from '@tollgate/persistence';
import { identityTokenTombstone } from '../tokens/token-events';
import { Token } from '../tokens/token.entity';
import { auditUser, userAuditSnapshot, type UserAudit } from './user-audit';
import { identityUserEvent, identityUserTombstone } from './user-events';
import { User } from './user.entity';

export interface NewUser {
  username: string;
  email: string | null;
  /** Null for an account that signs in only through OAuth. */
  passwordHash: string | null;
  displayName?: string;
  inviterId: number | null;
  /** When the person accepted the terms and the data processing; null for accounts made by an admin. */
  consentedAt: Date | null;
  linked?: { provider: OAuthProvider; providerId: string };
}

/** A unique field another account already has. */
export type TakenField = 'username' | 'email' | 'access_token' | 'aff_code' | OAuthProvider;

export type CreateOutcome = { kind: 'created'; user: User } | { kind: 'taken'; field: TakenField };
export type ChangeOutcome =
  { kind: 'changed'; user: User } | { kind: 'not_found' } | { kind: 'taken'; field: TakenField };

/** The column of each provider's account id. */
export const PROVIDER_ID_FIELD = {
  github: 'githubId',
  google: 'googleId',
  discord: 'discordId',
} as const satisfies Record<OAuthProvider, keyof User>;

/** `%` and `_` in a keyword match themselves. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The users table: the only place auth's user queries live. Every change that other services may
 * see is published whole on identity.user in the same transaction.
 */
@Injectable()
export class UsersRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  findById(id: number): Promise<User | null> {
    return this.em.fork().findOne(User, { id, deletedAt: null });
  }

  /** By username, or by e-mail address when the login name is one. */
  findByLogin(login: string): Promise<User | null> {
    const em = this.em.fork();
    return login.includes('@')
      ? em.findOne(User, { email: login.toLowerCase(), deletedAt: null })
      : em.findOne(User, { username: login, deletedAt: null });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.fork().findOne(User, { email, deletedAt: null });
  }

  findByAccessTokenHash(hash: string): Promise<User | null> {
    return this.em.fork().findOne(User, { accessTokenHash: hash, deletedAt: null });
  }

  findByProviderId(provider: OAuthProvider, providerId: string): Promise<User | null> {
    return this.em.fork().findOne(User, { [PROVIDER_ID_FIELD[provider]]: providerId, deletedAt: null });
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.em.fork().count(User, { email })) > 0;
  }

  async idOfAffCode(affCode: string): Promise<number | null> {
    const inviter = await this.em.fork().findOne(User, { affCode, deletedAt: null }, { fields: ['id'] });
    return inviter?.id ?? null;
  }

  countInvitedBy(id: number): Promise<number> {
    return this.em.fork().count(User, { inviterId: id });
  }

  /**
   * A page of live users, newest first; `keyword` matches part of the name, display name or
   * address, or the id; `filter` narrows by role, status and group.
   */
  async page(
    page: number,
    pageSize: number,
    keyword?: string,
    filter: UserFilter = {},
  ): Promise<{ items: User[]; total: number }> {
    const where: FilterQuery<User> = {
      deletedAt: null,
      ...(filter.role !== undefined ? { role: filter.role } : {}),
      ...(filter.status !== undefined ? { status: filter.status } : {}),
      ...(filter.group !== undefined ? { group: filter.group } : {}),
      ...(keyword
        ? {
            $or: [
              { username: { $ilike: likePattern(keyword) } },
              { displayName: { $ilike: likePattern(keyword) } },
              { email: { $ilike: likePattern(keyword) } },
              ...(/^\d{1,9}$/.test(keyword) ? [{ id: Number(keyword) }] : []),
            ],
          }
        : {}),
    };
    const [items, total] = await this.em.fork().findAndCount(User, where, {
      orderBy: { id: 'desc' },
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { items, total };
  }

  /** Inserts the user and its identity.user event in one transaction; a taken name, address or account is an outcome. */
  async create(input: NewUser, audit?: UserAudit): Promise<CreateOutcome> {
    const em = this.em.fork();
    if (await this.usernameTaken(em, input.username)) return { kind: 'taken', field: 'username' };
    if (input.email !== null && (await em.count(User, { email: input.email }))) {
      return { kind: 'taken', field: 'email' };
    }
    try {
      const user = await em.transactional(async (tx) => {
        const created = tx.create(User, {
          username: input.username,
          passwordHash: input.passwordHash,
          displayName: input.displayName ?? input.username,
          email: input.email,
          inviterId: input.inviterId,
          termsAcceptedAt: input.consentedAt,
          dataProcessingAcceptedAt: input.consentedAt,
          deletedAt: null,
          ...(input.linked ? { [PROVIDER_ID_FIELD[input.linked.provider]]: input.linked.providerId } : {}),
        });
        await tx.flush();
        await enqueueOutbox(tx, [identityUserEvent(created)]);
        if (audit) await auditUser(tx, audit, 'user.create', created.id, null, userAuditSnapshot(created));
        return created;
      });
      this.outbox.nudge();
      return { kind: 'created', user };
    } catch (error) {
      // Someone registered the same name, address or account between the checks and the insert.
      if (!isUniqueViolation(error)) throw error;
      if (await this.usernameTaken(this.em.fork(), input.username))
        return { kind: 'taken', field: 'username' };
      return { kind: 'taken', field: input.linked && !input.email ? input.linked.provider : 'email' };
    }
  }

  /**
   * Applies `apply` to the live user `id` in a transaction, publishing the user when `publish`
   * (a change other services may see) and auditing it when `audit` and a field the audit keeps
   * changed. A unique field another account has is an outcome.
   */
  async change(
    id: number,
    apply: (user: User) => void,
    options: { publish: boolean; taken?: TakenField; audit?: UserAudit & { action: string } } = {
      publish: true,
    },
  ): Promise<ChangeOutcome> {
    try {
      const user = await this.em.fork().transactional(async (tx) => {
        const found = await tx.findOne(User, { id, deletedAt: null });
        if (!found) return null;
        const before = userAuditSnapshot(found);
        apply(found);
        found.updatedAt = new Date();
        await tx.flush();
        if (options.publish) await enqueueOutbox(tx, [identityUserEvent(found)]);
        if (options.audit) {
          const after = userAuditSnapshot(found);
          // An edit of nothing auth keeps (an admin's balance-only edit, which billing audits) is no entry.
          if (changedFields(before, after).length > 0) {
            await auditUser(tx, options.audit, options.audit.action, id, before, after);
          }
        }
        return found;
      });
      if (!user) return { kind: 'not_found' };
      if (options.publish) this.outbox.nudge();
      return { kind: 'changed', user };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return { kind: 'taken', field: options.taken ?? 'email' };
    }
  }

  /**
   * Soft delete: the row stays (usage and ledger history point at it) with its username reserved,
   * while the address and linked accounts are freed, the access token ends, and every API key is
   * removed with its tombstone. identity.user gets the user's tombstone. False when no live user.
   */
  async softDelete(id: number, audit?: UserAudit): Promise<boolean> {
    const deleted = await this.em.fork().transactional(async (tx) => {
      const user = await tx.findOne(User, { id, deletedAt: null });
      if (!user) return false;
      const before = userAuditSnapshot(user);
      const tokens = await tx.find(Token, { userId: id }, { fields: ['id'] });
      await tx.nativeDelete(Token, { userId: id });
      user.deletedAt = new Date();
      user.email = null;
      user.accessTokenHash = null;
      user.githubId = null;
      user.googleId = null;
      user.discordId = null;
      user.affCode = null;
      await tx.flush();
      await enqueueOutbox(tx, [
        ...tokens.map((token) => identityTokenTombstone(token.id)),
        identityUserTombstone(id),
      ]);
      if (audit) await auditUser(tx, audit, 'user.delete', id, before, null);
      return true;
    });
    if (deleted) this.outbox.nudge();
    return deleted;
  }

  private async usernameTaken(em: EntityManager, username: string): Promise<boolean> {
    const rows = await em
      .getConnection()
      .execute<{ n: string }[]>('select count(*) as n from users where lower(username) = lower(?)', [
        username,
      ]);
    return Number(rows[0]?.n ?? 0) > 0;
  }
}
