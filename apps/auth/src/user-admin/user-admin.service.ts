import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  Role,
  UserStatus,
  type AccountSetQuotaResult,
  type AdminUserView,
  type CreateUserRequest,
  type ManageUserRequest,
  type Page,
  type UpdateUserRequest,
  type UserFilter,
} from '@tollgate/contracts';
import type { Identity } from '@tollgate/platform';
import { BalancesReadModel } from '../balances/balances-read-model';
import { BillingQuotaClient } from '../billing/billing-quota.client';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/localized-exception';
import { PasswordHasher } from '../users/password-hasher';
import { revokeSignIns } from '../users/sign-in-revocation';
import type { User } from '../users/user.entity';
import { UsersRepository, type ChangeOutcome } from '../users/users.repository';
import { adminUserView } from './admin-user-view';

/**
 * User admin (admin and root). An admin manages only users of a lower role; only root changes
 * roles. Root may edit anyone, itself included, but is never deleted, disabled or demoted.
 */
@Injectable()
export class UserAdminService {
  private readonly logger = new Logger(UserAdminService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly balances: BalancesReadModel,
    private readonly billing: BillingQuotaClient,
  ) {}

  async list(
    page: number,
    pageSize: number,
    keyword?: string,
    filter?: UserFilter,
  ): Promise<Page<AdminUserView>> {
    const found = await this.users.page(page, pageSize, keyword, filter);
    return { page, page_size: pageSize, total: found.total, items: found.items.map((u) => this.view(u)) };
  }

  async get(id: number, locale: Locale): Promise<AdminUserView> {
    return this.view(await this.existing(id, locale));
  }

  async create(actor: Identity, request: CreateUserRequest, locale: Locale): Promise<AdminUserView> {
    const outcome = await this.users.create(
      {
        username: request.username,
        email: null,
        passwordHash: await this.passwords.hash(request.password),
        displayName: request.display_name ?? request.username,
        inviterId: null,
        consentedAt: null,
      },
      { actor },
    );
    if (outcome.kind === 'taken') throw localizedException(ErrorCode.Conflict, 'username_taken', locale);
    return this.view(outcome.user);
  }

  /**
   * The balance is set first (billing may be away), the rest only once it is: a failure changes
   * nothing here. A new password signs the user out everywhere (sessions and access token).
   */
  async update(actor: Identity, request: UpdateUserRequest, locale: Locale): Promise<AdminUserView> {
    const target = await this.manageable(actor, request.id, locale, { allowRootSelf: true });
    if (request.role !== undefined && request.role !== target.role) {
      if (actor.role < Role.Root)
        throw localizedException(ErrorCode.Forbidden, 'role_change_root_only', locale);
      if (target.id === actor.userId)
        throw localizedException(ErrorCode.Forbidden, 'cannot_manage_peer', locale);
    }
    if (request.username !== undefined && request.username.toLowerCase() !== target.username.toLowerCase()) {
      if (await this.users.findByLogin(request.username)) {
        throw localizedException(ErrorCode.Conflict, 'username_taken', locale);
      }
    }
    const balanceSet =
      request.quota === undefined
        ? undefined
        : await this.setQuota(request.id, request.quota, actor, locale, request.quota_reason);
    const passwordHash =
      request.password === undefined ? undefined : await this.passwords.hash(request.password);
    const outcome = await this.users.change(
      request.id,
      (user) => {
        if (request.username !== undefined) user.username = request.username;
        if (request.display_name !== undefined) user.displayName = request.display_name;
        if (request.group !== undefined) user.group = request.group;
        if (request.role !== undefined) user.role = request.role;
        if (passwordHash !== undefined) {
          user.passwordHash = passwordHash;
          revokeSignIns(user, Date.now());
        }
      },
      { publish: true, taken: 'username', audit: { actor, action: 'user.update' } },
    );
    const view = this.view(this.changed(outcome, locale));
    // The balances read model learns the new balance from billing.balance a moment later.
    return balanceSet ? { ...view, quota: balanceSet.quota } : view;
  }

  async delete(actor: Identity, id: number, locale: Locale): Promise<void> {
    await this.manageable(actor, id, locale);
    if (!(await this.users.softDelete(id, { actor })))
      throw localizedException(ErrorCode.NotFound, 'user_not_found', locale);
  }

  async manage(actor: Identity, request: ManageUserRequest, locale: Locale): Promise<AdminUserView> {
    const target = await this.manageable(actor, request.id, locale);
    const audit = { actor, action: `user.${request.action}` };
    const setStatus = (status: UserStatus) =>
      this.users.change(target.id, (user) => (user.status = status), { publish: true, audit });
    const setRole = (role: Role) =>
      this.users.change(target.id, (user) => (user.role = role), { publish: true, audit });
    switch (request.action) {
      case 'disable':
        return this.view(this.changed(await setStatus(UserStatus.Disabled), locale));
      case 'enable':
        return this.view(this.changed(await setStatus(UserStatus.Enabled), locale));
      case 'promote':
        if (actor.role < Role.Root)
          throw localizedException(ErrorCode.Forbidden, 'role_change_root_only', locale);
        if (target.role >= Role.Admin)
          throw localizedException(ErrorCode.Conflict, 'user_already_admin', locale);
        return this.view(this.changed(await setRole(Role.Admin), locale));
      case 'demote':
        if (actor.role < Role.Root)
          throw localizedException(ErrorCode.Forbidden, 'role_change_root_only', locale);
        if (target.role <= Role.User)
          throw localizedException(ErrorCode.Conflict, 'user_already_user', locale);
        return this.view(this.changed(await setRole(Role.User), locale));
      case 'delete': {
        const view = this.view(target);
        await this.delete(actor, target.id, locale);
        return view;
      }
    }
  }

  private async setQuota(
    userId: number,
    quota: number,
    actor: Identity,
    locale: Locale,
    reason?: string,
  ): Promise<AccountSetQuotaResult> {
    try {
      return await this.billing.setQuota(userId, quota, actor, reason);
    } catch (error) {
      this.logger.warn(
        `balance of user ${userId} not set: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw localizedException(ErrorCode.ServiceUnavailable, 'quota_change_failed', locale, undefined, {
        headers: { 'retry-after': '5' },
      });
    }
  }

  /** The live user `id`, when the actor's role is above theirs (root may also edit itself when `allowRootSelf`). */
  private async manageable(
    actor: Identity,
    id: number,
    locale: Locale,
    options: { allowRootSelf?: boolean } = {},
  ): Promise<User> {
    const target = await this.existing(id, locale);
    const rootSelf = options.allowRootSelf && actor.role >= Role.Root && target.id === actor.userId;
    if (target.role >= actor.role && !rootSelf) {
      throw localizedException(ErrorCode.Forbidden, 'cannot_manage_peer', locale);
    }
    return target;
  }

  private async existing(id: number, locale: Locale): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw localizedException(ErrorCode.NotFound, 'user_not_found', locale);
    return user;
  }

  private changed(outcome: ChangeOutcome, locale: Locale): User {
    if (outcome.kind === 'not_found') throw localizedException(ErrorCode.NotFound, 'user_not_found', locale);
    if (outcome.kind === 'taken') throw localizedException(ErrorCode.Conflict, 'username_taken', locale);
    return outcome.user;
  }

  private view(user: User): AdminUserView {
    return adminUserView(user, this.balances.of(user.id));
  }
}
