import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  auditTargetName,
  type AuditEntryView,
  type AuditListQuery,
  type AuditRecorded,
  type Page,
} from '@tollgate/contracts';

interface AuditRow {
  id: string;
  service: string;
  actor_id: number;
  actor_role: number;
  action: string;
  target_kind: string;
  target_id: string;
  changed: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  occurred_at: Date;
}

/** The audit_entries table: stored once per event id, listed newest first. */
@Injectable()
export class AuditRepository {
  constructor(private readonly em: EntityManager) {}

  /** How many of the events were new (a redelivered event id is skipped). */
  async add(events: readonly AuditRecorded[]): Promise<number> {
    if (events.length === 0) return 0;
    const rows = events.map(({ occurred_at_ms, ...event }) => ({
      ...event,
      occurred_at: new Date(occurred_at_ms),
    }));
    const [result] = await this.em.getConnection().execute<{ added: number }[]>(
      `with "added" as (
         insert into "audit_entries" ("event_id", "service", "actor_id", "actor_role", "action",
           "target_kind", "target_id", "changed", "before", "after", "request_id", "occurred_at")
         select x."event_id", x."service", x."actor_id", x."actor_role", x."action", x."target_kind",
           x."target_id", coalesce(x."changed", '[]'::jsonb), x."before", x."after", x."request_id", x."occurred_at"
         from jsonb_to_recordset(?::jsonb) as x("event_id" uuid, "service" text, "actor_id" integer,
           "actor_role" integer, "action" text, "target_kind" text, "target_id" text, "changed" jsonb,
           "before" jsonb, "after" jsonb, "request_id" text, "occurred_at" timestamptz)
         on conflict ("event_id") do nothing
         returning 1
       )
       select count(*)::int as "added" from "added"`,
      [JSON.stringify(rows)],
    );
    return result?.added ?? 0;
  }

  async page(query: AuditListQuery, page: number, pageSize: number): Promise<Page<AuditEntryView>> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const where = (sql: string, value: unknown) => {
      conditions.push(sql);
      params.push(value);
    };
    if (query.actor_id !== undefined) where('"actor_id" = ?', query.actor_id);
    if (query.action !== undefined) where('"action" = ?', query.action);
    if (query.target_kind !== undefined) where('"target_kind" = ?', query.target_kind);
    if (query.target_id !== undefined) where('"target_id" = ?', query.target_id);
    if (query.start_timestamp !== undefined)
      where('"occurred_at" >= ?', new Date(query.start_timestamp * 1000));
    if (query.end_timestamp !== undefined) where('"occurred_at" <= ?', new Date(query.end_timestamp * 1000));
    const whereSql = conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;
    const connection = this.em.getConnection();
    const [count] = await connection.execute<{ total: number }[]>(
      `select count(*)::int as "total" from "audit_entries" ${whereSql}`,
      params,
    );
    const rows = await connection.execute<AuditRow[]>(
      `select "id", "service", "actor_id", "actor_role", "action", "target_kind", "target_id", "changed",
         "before", "after", "request_id", "occurred_at"
       from "audit_entries" ${whereSql}
       order by "occurred_at" desc, "id" desc limit ? offset ?`,
      [...params, pageSize, (page - 1) * pageSize],
    );
    return { page, page_size: pageSize, total: count?.total ?? 0, items: rows.map(entryView) };
  }
}

function entryView(row: AuditRow): AuditEntryView {
  return {
    id: Number(row.id),
    service: row.service,
    actor_id: row.actor_id,
    actor_role: row.actor_role,
    action: row.action,
    target_kind: row.target_kind,
    target_id: row.target_id,
    // From the snapshots written with the change, so a deleted object keeps the name it had.
    target_name: auditTargetName(row.target_kind, row.before, row.after),
    changed: row.changed,
    before: row.before,
    after: row.after,
    request_id: row.request_id,
    created_at: Math.floor(new Date(row.occurred_at).getTime() / 1000),
  };
}
