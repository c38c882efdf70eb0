import type { EntityManager } from '@mikro-orm/postgresql';
import { auditRecorder, type AuditActor } from '@tollgate/persistence';
import type { User } from './user.entity';

/** An operator's change to a user, recorded in the audit trail in the change's transaction. */
export interface UserAudit {
  actor: AuditActor;
}

/** A user as the audit trail keeps it: what an operator changes (the password by its hash, redacted). */
export function userAuditSnapshot(user: User): Record<string, unknown> {
  return {
    username: user.username,
    display_name: user.displayName,
    email: user.email,
    role: user.role,
    status: user.status,
    group: user.group,
    password: user.passwordHash,
  };
}

const recordUserChange = auditRecorder('auth', 'user');

export function auditUser(
  tx: EntityManager,
  audit: UserAudit,
  action: string,
  id: number,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Promise<void> {
  return recordUserChange(tx, audit.actor, action, id, before, after);
}
