import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { changedFields, redactForAudit, TOPICS, type AuditRecorded } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import { currentCorrelationHeaders } from '@tollgate/platform';
import { enqueueOutbox } from './enqueue-outbox';

/** The operator making a change (the platform's Identity has this shape). */
export interface AuditActor {
  userId: number;
  role: number;
}

/** An operator's change, as the service that makes it describes it. */
export interface AuditDraft {
  /** The service making the change. */
  service: string;
  actor: AuditActor;
  action: string;
  target: { kind: string; id: string | number };
  /** The object's fields before the change (null when it is created). Secrets are redacted here. */
  before: Record<string, unknown> | null;
  /** The object's fields after the change (null when it is deleted). */
  after: Record<string, unknown> | null;
}

/** The `audit.recorded` event of `draft`: changed fields computed first, then secrets redacted. */
export function auditRecordedEvent(draft: AuditDraft, now = new Date()): OutgoingEvent {
  const value: AuditRecorded = {
    v: 1,
    event_id: randomUUID(),
    service: draft.service,
    actor_id: draft.actor.userId,
    actor_role: draft.actor.role,
    action: draft.action,
    target_kind: draft.target.kind,
    target_id: String(draft.target.id),
    changed: changedFields(draft.before, draft.after),
    before: redactForAudit(draft.before),
    after: redactForAudit(draft.after),
    request_id: currentCorrelationHeaders()['x-request-id'] ?? null,
    occurred_at_ms: now.getTime(),
  };
  return {
    topic: TOPICS.auditRecorded.name,
    key: `${value.service}:${value.target_kind}:${value.target_id}`,
    value,
  };
}

/** Writes the audit entry of `draft` in the transaction `tx` that makes the change. */
export async function recordAudit(tx: EntityManager, draft: AuditDraft): Promise<void> {
  await enqueueOutbox(tx, [auditRecordedEvent(draft)]);
}

/** Records one service's changes to one kind of object: `record(tx, actor, action, id, before, after)`. */
export type AuditRecorder = (
  tx: EntityManager,
  actor: AuditActor,
  action: string,
  id: string | number,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) => Promise<void>;

/** The audit recorder of `service`'s `kind` objects, so each repository states them once. */
export function auditRecorder(service: string, kind: string): AuditRecorder {
  return (tx, actor, action, id, before, after) =>
    recordAudit(tx, { service, actor, action, target: { kind, id }, before, after });
}
