import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { enqueueOutbox, isUniqueViolation, OutboxRelay } from '@tollgate/persistence';
import { identityUserEvent } from './user-events';
import { User } from './user.entity';

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  inviterId: number | null;
  consentedAt: Date;
}

export type CreateOutcome = { kind: 'created'; user: User } | { kind: 'taken'; field: 'username' | 'email' };

/** The users table: the only place auth's user queries live. */
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

  /** Inserts the user and its identity.user event in one transaction; a taken name or address is an outcome. */
  async create(input: NewUser): Promise<CreateOutcome> {
    const em = this.em.fork();
    if (await this.usernameTaken(em, input.username)) return { kind: 'taken', field: 'username' };
    if (await em.count(User, { email: input.email })) return { kind: 'taken', field: 'email' };
    try {
      const user = await em.transactional(async (tx) => {
        const created = tx.create(User, {
          username: input.username,
          passwordHash: input.passwordHash,
          displayName: input.username,
          email: input.email,
          inviterId: input.inviterId,
          termsAcceptedAt: input.consentedAt,
          dataProcessingAcceptedAt: input.consentedAt,
          deletedAt: null,
        });
        await tx.flush();
        await enqueueOutbox(tx, [identityUserEvent(created)]);
        return created;
      });
      this.outbox.nudge();
      return { kind: 'created', user };
    } catch (error) {
      // Someone registered the same name or address between the checks and the insert.
      if (!isUniqueViolation(error)) throw error;
      return {
        kind: 'taken',
        field: (await this.usernameTaken(this.em.fork(), input.username)) ? 'username' : 'email',
      };
    }
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
