import type { SessionUser } from '@tollgate/contracts';
import type { User } from './user.entity';

/** The account as login and registration answer it. */
export const sessionUserOf = (user: User): SessionUser => ({
  id: user.id,
  username: user.username,
  display_name: user.displayName,
  role: user.role,
  status: user.status,
  group: user.group,
});
