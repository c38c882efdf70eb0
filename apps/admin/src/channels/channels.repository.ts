import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ChannelStatus, type NewChannelFields } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay, recordAudit, type AuditActor } from '@tollgate/persistence';
import { channelAuditSnapshot } from './channel-view';
import { channelEvents, channelTombstones } from './channel-events';
import { Channel } from './channel.entity';

export interface NewChannel extends NewChannelFields {
  keyEncrypted: string;
  keyMasked: string;
}

/** Which channels a list shows; absent parts match everything. */
export interface ChannelFilter {
  status: 'enabled' | 'disabled' | 'all';
  type?: number | undefined;
  /** Part of the name, tag or base URL, or the id. */
  keyword?: string;
  /** One of the channel's groups. */
  group?: string;
  /** Part of one of the channel's models. */
  model?: string;
}

export interface ChannelOrder {
  /** Newest first; otherwise highest priority first. */
  idSort: boolean;
}

export interface ChannelSlice {
  items: Channel[];
  total: number;
}

/** A change made under the row lock; answering false means nothing changed (no event). */
export type ChannelChange = (channel: Channel) => boolean;

interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** `%` and `_` in a keyword match themselves. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const ENTRY = `coalesce(nullif("tag", ''), '#' || "id")`;

function conditionOf(filter: ChannelFilter): SqlCondition {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.status === 'enabled') clauses.push(`"status" = ${ChannelStatus.Enabled}`);
  if (filter.status === 'disabled') clauses.push(`"status" <> ${ChannelStatus.Enabled}`);
  if (filter.type !== undefined) {
    clauses.push('"type" = ?');
    params.push(filter.type);
  }
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    const byId = /^\d{1,10}$/.test(filter.keyword) && Number(filter.keyword) <= 2_147_483_647;
    clauses.push(`("name" ilike ? or "tag" ilike ? or "base_url" ilike ?${byId ? ' or "id" = ?' : ''})`);
    params.push(pattern, pattern, pattern, ...(byId ? [Number(filter.keyword)] : []));
  }
  if (filter.group) {
    clauses.push('"groups" @> ?::jsonb');
    params.push(JSON.stringify([filter.group]));
  }
  if (filter.model) {
    clauses.push(
      'exists (select 1 from jsonb_array_elements_text("models") as m(name) where m.name ilike ?)',
    );
    params.push(likePattern(filter.model));
  }
  return { sql: clauses.length > 0 ? `where ${clauses.join(' and ')}` : '', params };
}

/**
 * The channels table. Every change is published whole on catalog.channel (a tombstone on delete) in
 * the same transaction, through the outbox.
 */
@Injectable()
export class ChannelsRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  find(id: number): Promise<Channel | null> {
    return this.em.fork().findOne(Channel, { id });
  }

  /** Ids of the channels the system disabled, oldest change first. */
  async autoDisabledIds(): Promise<number[]> {
    const channels = await this.em
      .fork()
      .find(
        Channel,
        { status: ChannelStatus.AutoDisabled },
        { fields: ['id'], orderBy: { statusChangedAt: 'asc', id: 'asc' } },
      );
    return channels.map((channel) => channel.id);
  }

  /** One page of channels. */
  async page(
    filter: ChannelFilter,
    order: ChannelOrder,
    page: number,
    pageSize: number,
  ): Promise<ChannelSlice> {
    const where = conditionOf(filter);
    const orderBy = order.idSort ? '"id" desc' : '"priority" desc, "id" desc';
    const rows = await this.query<{ id: number }>(
      `select "id" from "channels" ${where.sql} order by ${orderBy} limit ? offset ?`,
      [...where.params, pageSize, (page - 1) * pageSize],
    );
    const [count] = await this.query<{ total: number }>(
      `select count(*)::int as "total" from "channels" ${where.sql}`,
      where.params,
    );
    return { items: await this.inOrder(rows.map((row) => row.id)), total: count?.total ?? 0 };
  }

  /**
   * new-api's tag mode: a page of entries, each a tag with all its channels or an untagged channel on
   * its own; `total` counts entries. Channels of one tag come together.
   */
  async tagPage(
    filter: ChannelFilter,
    order: ChannelOrder,
    page: number,
    pageSize: number,
  ): Promise<ChannelSlice> {
    const where = conditionOf(filter);
    const orderBy = order.idSort ? 'max("id") desc' : 'max("priority") desc, max("id") desc';
    const entries = await this.query<{ entry: string }>(
      `select ${ENTRY} as "entry" from "channels" ${where.sql} group by 1 order by ${orderBy} limit ? offset ?`,
      [...where.params, pageSize, (page - 1) * pageSize],
    );
    const [count] = await this.query<{ total: number }>(
      `select count(distinct ${ENTRY})::int as "total" from "channels" ${where.sql}`,
      where.params,
    );
    if (entries.length === 0) return { items: [], total: count?.total ?? 0 };

    const rank = new Map(entries.map((row, index) => [row.entry, index]));
    const members = await this.query<{ id: number; entry: string }>(
      `select "id", ${ENTRY} as "entry" from "channels" ${where.sql ? `${where.sql} and` : 'where'} ${ENTRY} in (${entries.map(() => '?').join(', ')})`,
      [...where.params, ...entries.map((row) => row.entry)],
    );
    const entryOf = new Map(members.map((row) => [row.id, row.entry]));
    const channels = await this.em.fork().find(Channel, { id: { $in: members.map((row) => row.id) } });
    channels.sort(
      (a, b) =>
        rank.get(entryOf.get(a.id)!)! - rank.get(entryOf.get(b.id)!)! ||
        (order.idSort ? 0 : b.priority - a.priority) ||
        b.id - a.id,
    );
    return { items: channels, total: count?.total ?? 0 };
  }

  /** How many channels of each type pass the filter, whatever its type part says. */
  async typeCounts(filter: ChannelFilter): Promise<Record<string, number>> {
    const where = conditionOf({ ...filter, type: undefined });
    const rows = await this.query<{ type: number; count: number }>(
      `select "type", count(*)::int as "count" from "channels" ${where.sql} group by "type"`,
      where.params,
    );
    return Object.fromEntries(rows.map((row) => [String(row.type), row.count]));
  }

  /** All or nothing: the channels exist and their events are queued, or neither. */
  async create(inputs: readonly NewChannel[], actor: AuditActor): Promise<Channel[]> {
    const channels = await this.em.fork().transactional(async (tx) => {
      const now = new Date();
      const created = inputs.map((input) =>
        tx.create(Channel, {
          type: input.type,
          name: input.name,
          keyEncrypted: input.keyEncrypted,
          keyMasked: input.keyMasked,
          baseUrl: input.base_url,
          models: input.models,
          modelMapping: input.model_mapping,
          groups: input.group,
          priority: input.priority,
          weight: input.weight,
          tag: input.tag,
          status: input.status,
          autoBan: input.auto_ban,
          testModel: input.test_model,
          maxConcurrency: input.max_concurrency,
          other: input.other,
          streamHeadersTimeout: input.stream_headers_timeout,
          createdAt: now,
          updatedAt: now,
        }),
      );
      await tx.flush();
      await enqueueOutbox(tx, created.flatMap(channelEvents));
      for (const channel of created) {
        await recordAudit(tx, {
          service: 'admin',
          actor,
          action: 'channel.create',
          target: { kind: 'channel', id: channel.id },
          before: null,
          after: channelAuditSnapshot(channel),
        });
      }
      return created;
    });
    this.outbox.nudge();
    return channels;
  }

  /**
   * Applies `change` to channel `id` under its row lock and publishes the result. Null when there is
   * no such channel; an exception thrown by `change` rolls everything back. An operator's change
   * (`audit` given) is recorded in the audit trail; the platform's own (auto-disable) is not.
   */
  async modify(
    id: number,
    change: ChannelChange,
    audit?: { actor: AuditActor; action: string },
  ): Promise<Channel | null> {
    let changed = false;
    const channel = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Channel, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) return null;
      const before = channelAuditSnapshot(found);
      changed = change(found);
      if (!changed) return found;
      found.updatedAt = new Date();
      await tx.flush();
      await enqueueOutbox(tx, channelEvents(found));
      if (audit) {
        await recordAudit(tx, {
          service: 'admin',
          actor: audit.actor,
          action: audit.action,
          target: { kind: 'channel', id },
          before,
          after: channelAuditSnapshot(found),
        });
      }
      return found;
    });
    if (changed) this.outbox.nudge();
    return channel;
  }

  /** The outcome of a test (`testError` null when it passed): not part of the catalog, so no event. */
  async recordTest(
    id: number,
    responseTimeMs: number,
    testedAt: Date,
    testError: string | null,
  ): Promise<void> {
    await this.em.fork().nativeUpdate(Channel, { id }, { responseTime: responseTimeMs, testedAt, testError });
  }

  /** True when the channel existed and is gone, its tombstone queued. */
  async delete(id: number, actor: AuditActor): Promise<boolean> {
    const deleted = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Channel, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) return false;
      const before = channelAuditSnapshot(found);
      await tx.nativeDelete(Channel, { id });
      await enqueueOutbox(tx, channelTombstones(id));
      await recordAudit(tx, {
        service: 'admin',
        actor,
        action: 'channel.delete',
        target: { kind: 'channel', id },
        before,
        after: null,
      });
      return true;
    });
    if (deleted) this.outbox.nudge();
    return deleted;
  }

  private query<T extends object>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return this.em.getConnection().execute<T[]>(sql, [...params]);
  }

  private async inOrder(ids: readonly number[]): Promise<Channel[]> {
    if (ids.length === 0) return [];
    const channels = await this.em.fork().find(Channel, { id: { $in: [...ids] } });
    const byId = new Map(channels.map((channel) => [channel.id, channel]));
    return ids.map((id) => byId.get(id)).filter((channel): channel is Channel => channel !== undefined);
  }
}
