import { z } from 'zod';
import { pageSchema } from '../http/envelope';

/**
 * The audit trail of operators' actions (new-api's "manage" log type): who did what to which
 * object, with the object's fields before and after. Each service writes `audit.recorded` through
 * its outbox in the transaction that makes the change; admin keeps and lists them.
 */

export const AUDIT_PAGE_DEFAULT_SIZE = 20;
/** Replaces the value of a secret field (keys, passwords, tokens) in `before` and `after`. */
export const AUDIT_REDACTED = '[redacted]';

const epochSeconds = z.number().int().nonnegative();
const snapshot = z.record(z.unknown()).nullable();
const auditName = z.string().min(1).max(64);

export const auditRecordedV1 = z.object({
  v: z.literal(1),
  event_id: z.string().uuid(),
  /** The service that made the change. */
  service: z.string().min(1).max(32),
  actor_id: z.number().int().positive(),
  actor_role: z.number().int().nonnegative(),
  /** `<object>.<verb>`, e.g. `user.update`, `channel.delete`, `payment.refund`. */
  action: auditName,
  target_kind: auditName,
  target_id: z.string().min(1).max(128),
  /** The fields whose value changed (secrets included by name, never by value). */
  changed: z.array(z.string().max(128)).max(500),
  before: snapshot,
  after: snapshot,
  request_id: z.string().max(128).nullable(),
  /** Epoch milliseconds: changes made within one second are still listed in the order they were made. */
  occurred_at_ms: z.number().int().nonnegative(),
});
export type AuditRecorded = z.infer<typeof auditRecordedV1>;

/** One entry of `GET /api/audit`. */
export const auditEntryViewSchema = auditRecordedV1
  .omit({ v: true, event_id: true, occurred_at_ms: true })
  .extend({
    id: z.number().int().positive(),
    created_at: epochSeconds,
    /**
     * The object as an operator knows it (auditTargetName), as it was when the entry was written: a
     * deleted version keeps its name. Null when the id is its name (an option's key, a model) or the
     * entry's snapshots do not carry one.
     */
    target_name: z.string().nullable().default(null),
  });
export type AuditEntryView = z.infer<typeof auditEntryViewSchema>;
export const auditPageSchema = pageSchema(auditEntryViewSchema);

/** The snapshot field that names each kind of object, as its service writes it into `before` and `after`. */
const NAME_FIELD: Record<string, string> = {
  user: 'username',
  channel: 'name',
  promo: 'code',
  incident: 'title',
  version: 'version',
};
const NAME_MAX_CHARS = 120;

/**
 * The name an operator knows an audited object by, from the snapshots written with the change (the
 * state after it, else before it: a deletion keeps the name it had): a user's username, a channel's
 * name, a promo code, an incident's title, a changelog version's version and title ('1.4.0 — Faster
 * chat'). Null for kinds whose id is already their name, and when the snapshot carries none (billing's
 * balance change of a user names no username).
 */
export function auditTargetName(
  kind: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string | null {
  const field = NAME_FIELD[kind];
  const snapshot = after ?? before;
  if (field === undefined || snapshot === null) return null;
  const name = snapshot[field];
  if (typeof name !== 'string' || name.trim() === '') return null;
  const title = kind === 'version' ? snapshot['title'] : undefined;
  const full = typeof title === 'string' && title.trim() !== '' ? `${name} — ${title}` : name;
  return full.length > NAME_MAX_CHARS ? `${full.slice(0, NAME_MAX_CHARS - 1)}…` : full;
}

const optionalId = z.coerce.number().int().positive().optional();
const optionalText = z
  .string()
  .trim()
  .max(64)
  .optional()
  .transform((value) => value || undefined);

/** Filters of `GET /api/audit` (the page query is read separately). */
export const auditListQuerySchema = z.object({
  actor_id: optionalId,
  action: optionalText,
  target_kind: optionalText,
  target_id: z
    .string()
    .trim()
    .max(128)
    .optional()
    .transform((value) => value || undefined),
  start_timestamp: z.coerce.number().int().nonnegative().optional(),
  end_timestamp: z.coerce.number().int().nonnegative().optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

const SECRET_FIELD = /(^|_)(key|keys|secret|password|password_hash|token|access_token|api_key|hash)$/i;

/** True for a field whose value must never reach the audit trail. */
export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name) || /secret|password/i.test(name);
}

/** A copy of `value` with every secret field's value replaced, at any depth. */
export function redactForAudit(value: Record<string, unknown> | null): Record<string, unknown> | null {
  if (value === null) return null;
  return redactObject(value);
}

function redactObject(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (isSecretField(name)) copy[name] = field === null || field === '' ? field : AUDIT_REDACTED;
    else copy[name] = redactValue(field);
  }
  return copy;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return redactObject(value as Record<string, unknown>);
  }
  return value;
}

/** The top-level fields whose values differ between `before` and `after` (compared before redaction). */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names].filter((name) => !sameValue(before?.[name], after?.[name])).sort();
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
