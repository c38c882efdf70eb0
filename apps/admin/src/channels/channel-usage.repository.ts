import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { UsageRecorded } from '@tollgate/contracts';
import { queryRows } from '@tollgate/persistence';

const REMEMBER_EVENTS_MS = 30 * 24 * 3600 * 1000;
const FORGET_EVERY_MS = 3600 * 1000;

/** One served request's charge on one channel. */
export interface ChannelCharge {
  eventId: string;
  channelId: number;
  quota: number;
}

/**
 * Records the batch's event ids (a redelivered id is skipped) and adds only the new ones to their
 * channels. The batch is `json` (read once as text), not `jsonb` (which would build a tree first).
 */
const ADD_SQL = `with "incoming" as (
  select * from json_to_recordset(?::json) as x("event_id" uuid, "channel_id" integer, "quota" bigint)
), "fresh" as (
  insert into "channel_usage_events" ("event_id") select "event_id" from "incoming"
  on conflict ("event_id") do nothing
  returning "event_id"
), "totals" as (
  select i."channel_id", sum(i."quota") as "quota"
  from "incoming" i join "fresh" f on f."event_id" = i."event_id"
  group by i."channel_id"
), "updated" as (
  update "channels" c set "used_quota" = c."used_quota" + t."quota"
  from "totals" t where c."id" = t."channel_id"
  returning c."id"
)
select (select count(*) from "fresh")::int as "added"`;

/**
 * Adds usage to channels' used_quota exactly once per event: in one statement the event ids are
 * recorded (a redelivered id is skipped) and only the new ones are summed into their channels.
 */
@Injectable()
export class ChannelUsageRepository {
  private lastForgotten = 0;

  constructor(private readonly em: EntityManager) {}

  /**
   * Adds served calls to their channels (a call without a channel or a charge adds nothing) and, at
   * most hourly, forgets event ids older than a month.
   */
  async record(events: readonly Pick<UsageRecorded, 'event_id' | 'channel_id' | 'quota'>[]): Promise<void> {
    const charges: ChannelCharge[] = [];
    for (const event of events) {
      if (event.channel_id !== null && event.quota > 0) {
        charges.push({ eventId: event.event_id, channelId: event.channel_id, quota: event.quota });
      }
    }
    await this.add(charges);
    if (Date.now() - this.lastForgotten > FORGET_EVERY_MS) {
      this.lastForgotten = Date.now();
      await this.forgetBefore(new Date(Date.now() - REMEMBER_EVENTS_MS));
    }
  }

  /** How many of the charges were new. */
  async add(charges: readonly ChannelCharge[]): Promise<number> {
    const unique = new Map<string, { event_id: string; channel_id: number; quota: number }>();
    for (const { eventId, channelId, quota } of charges) {
      if (!unique.has(eventId)) unique.set(eventId, { event_id: eventId, channel_id: channelId, quota });
    }
    if (unique.size === 0) return 0;
    const [result] = await queryRows<{ added: number }>(this.em, ADD_SQL, [
      JSON.stringify([...unique.values()]),
    ]);
    return result?.added ?? 0;
  }

  /** Forgets event ids older than `before`; redelivery happens within minutes, not weeks. */
  async forgetBefore(before: Date): Promise<void> {
    await this.em
      .getConnection()
      .execute('delete from "channel_usage_events" where "recorded_at" < ?', [before]);
  }
}
