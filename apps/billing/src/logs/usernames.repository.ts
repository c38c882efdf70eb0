import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { IdentityUser } from '@tollgate/contracts';

/** Only place that writes usernames. */
@Injectable()
export class UsernamesRepository {
  constructor(private readonly em: EntityManager) {}

  /** Stores each user's latest name; a redelivered or older event changes nothing. */
  async remember(users: readonly IdentityUser[]): Promise<void> {
    const latest = new Map<number, IdentityUser>();
    for (const user of users) {
      const known = latest.get(user.id);
      if (!known || known.updated_at <= user.updated_at) latest.set(user.id, user);
    }
    if (latest.size === 0) return;
    const rows = [...latest.values()].sort((a, b) => a.id - b.id);
    await this.em.fork().execute(
      `insert into usernames (user_id, username, updated_at)
       values ${rows.map(() => '(?, ?, ?)').join(', ')}
       on conflict (user_id) do update set username = excluded.username, updated_at = excluded.updated_at
       where usernames.updated_at <= excluded.updated_at`,
      rows.flatMap((user) => [user.id, user.username, user.updated_at]),
      'run',
    );
  }
}
