import { randomInt } from 'node:crypto';
import { Role, UserStatus, type IdentityUser } from '@tollgate/contracts';

/** Ids far above anything a test database hands out, fresh per run: older records on Kafka never collide. */
export const randomUserId = (): number => randomInt(100_000_000, 2_000_000_000);

/** An enabled ordinary user as identity.user carries it, created and last updated at `at` (epoch seconds). */
export function anIdentityUser(id: number, at = Math.floor(Date.now() / 1000)): IdentityUser {
  return {
    v: 1,
    id,
    username: `user_${id}`,
    display_name: `User ${id}`,
    role: Role.User,
    status: UserStatus.Enabled,
    group: 'default',
    inviter_id: null,
    created_at: at,
    updated_at: at,
  };
}
