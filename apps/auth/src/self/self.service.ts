import { Injectable } from '@nestjs/common';
import { ErrorCode, type SelfUser } from '@tollgate/contracts';
import { accessException, type Locale } from '@tollgate/platform';
import { BalancesReadModel } from '../balances/balances-read-model';
import { sessionUserOf } from '../users/session-user';
import { UsersRepository } from '../users/users.repository';

/** GET /api/user/self: the account, its invite figures and its balance from billing (0 before billing has one). */
@Injectable()
export class SelfService {
  constructor(
    private readonly users: UsersRepository,
    private readonly balances: BalancesReadModel,
  ) {}

  async self(userId: number, locale: Locale): Promise<SelfUser> {
    const user = await this.users.findById(userId);
    if (!user) throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
    const balance = this.balances.of(userId);
    return {
      ...sessionUserOf(user),
      email: user.email,
      quota: balance?.quota ?? 0,
      used_quota: balance?.used_quota ?? 0,
      request_count: balance?.request_count ?? 0,
      aff_code: user.affCode,
      aff_count: await this.users.countInvitedBy(userId),
      aff_quota: balance?.aff_quota ?? 0,
      aff_history_quota: balance?.aff_history_quota ?? 0,
      inviter_id: user.inviterId,
      setting: user.setting,
      github_id: user.githubId ?? '',
      google_id: user.googleId ?? '',
      discord_id: user.discordId ?? '',
    };
  }
}
