import { TOPICS, userSettingsSchema, type DefaultCurrency, type IdentityUser } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { User } from './user.entity';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The currency the user chose in their settings (as /api/user/self shows it), or undefined when
 * they never chose one, so that the platform's default applies to them.
 */
export function chosenCurrency(setting: string): DefaultCurrency | undefined {
  let document: unknown;
  try {
    document = setting ? JSON.parse(setting) : undefined;
  } catch {
    return undefined;
  }
  if (typeof document !== 'object' || document === null || !('default_currency' in document))
    return undefined;
  return userSettingsSchema.parse(document).default_currency;
}

/** The whole user on the compacted identity.user topic, keyed by id; what other services may know of a user. */
export function identityUserEvent(user: User): OutgoingEvent {
  const currency = chosenCurrency(user.setting);
  const value: IdentityUser = {
    v: 1,
    id: user.id,
    username: user.username,
    display_name: user.displayName,
    role: user.role,
    status: user.status,
    group: user.group,
    inviter_id: user.inviterId,
    // Left out, not undefined: the outbox's JSON column stores an undefined field as null, which
    // consumers built before the contract accepted null refuse.
    ...(currency === undefined ? {} : { default_currency: currency }),
    created_at: seconds(user.createdAt),
    updated_at: seconds(user.updatedAt),
  };
  return { topic: TOPICS.identityUser.name, key: String(user.id), value };
}

/** A deleted user: compaction forgets them; services keep what history they own. */
export function identityUserTombstone(id: number): OutgoingEvent {
  return { topic: TOPICS.identityUser.name, key: String(id), value: null };
}
