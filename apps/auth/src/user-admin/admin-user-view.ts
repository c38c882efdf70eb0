import type { AdminUserView, BillingBalance } from '@tollgate/contracts';
import { sessionUserOf } from '../users/session-user';
import type { User } from '../users/user.entity';

/** A user as the admin list and reads show it, with the balance billing last published. */
export function adminUserView(user: User, balance: BillingBalance | undefined): AdminUserView {
  return {
    ...sessionUserOf(user),
    email: user.email,
    quota: balance?.quota ?? 0,
    used_quota: balance?.used_quota ?? 0,
    request_count: balance?.request_count ?? 0,
    aff_code: user.affCode,
    inviter_id: user.inviterId,
    github_id: user.githubId ?? '',
    google_id: user.googleId ?? '',
    discord_id: user.discordId ?? '',
    created_time: Math.floor(user.createdAt.getTime() / 1000),
  };
}
