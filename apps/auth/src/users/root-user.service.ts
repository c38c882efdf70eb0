import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Role } from '@tollgate/contracts';
import { enqueueOutbox, isUniqueViolation, OutboxRelay } from '@tollgate/persistence';
import { InjectServiceConfig } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { PasswordHasher } from './password-hasher';
import { identityUserEvent } from './user-events';
import { User } from './user.entity';

export type RootUserOutcome = 'created' | 'exists' | 'not_configured' | 'username_taken';

/**
 * The first root comes from TOLLGATE_ROOT_USERNAME / TOLLGATE_ROOT_PASSWORD, created once when no
 * root exists. There is no default password: without one, no root is made and the log says how.
 */
@Injectable()
export class RootUserService implements OnApplicationBootstrap {
  private readonly logger = new Logger(RootUserService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly passwords: PasswordHasher,
    private readonly outbox: OutboxRelay,
    @InjectServiceConfig() private readonly config: AuthConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const outcome = await this.ensureRootUser();
    if (outcome === 'not_configured') {
      this.logger.warn(
        'No root user exists: set TOLLGATE_ROOT_USERNAME and TOLLGATE_ROOT_PASSWORD to create one',
      );
    } else if (outcome === 'username_taken') {
      this.logger.error(
        `No root user exists and "${this.config.TOLLGATE_ROOT_USERNAME}" is taken by another user`,
      );
    } else if (outcome === 'created') {
      this.logger.log(`Root user "${this.config.TOLLGATE_ROOT_USERNAME}" created`);
    }
  }

  async ensureRootUser(): Promise<RootUserOutcome> {
    const username = this.config.TOLLGATE_ROOT_USERNAME;
    const password = this.config.TOLLGATE_ROOT_PASSWORD;
    const em = this.em.fork();
    if ((await em.count(User, { role: { $gte: Role.Root }, deletedAt: null })) > 0) return 'exists';
    if (!password) return 'not_configured';
    if (await em.count(User, { username })) return 'username_taken';

    const passwordHash = await this.passwords.hash(password);
    try {
      await em.transactional(async (tx) => {
        const user = tx.create(User, {
          username,
          passwordHash,
          displayName: username,
          email: null,
          role: Role.Root,
          inviterId: null,
          deletedAt: null,
        });
        await tx.flush();
        await enqueueOutbox(tx, [identityUserEvent(user)]);
      });
    } catch (err) {
      // Another replica starting at the same moment made it first.
      if (isUniqueViolation(err)) return 'exists';
      throw err;
    }
    this.outbox.nudge();
    return 'created';
  }
}
