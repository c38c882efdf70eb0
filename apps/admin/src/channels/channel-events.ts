import { CHANNEL_TYPES, TOPICS, type CatalogChannel } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { Channel } from './channel.entity';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The channel as relay routes by it: the catalog.channel entity (the key stays sealed). */
export function catalogChannel(channel: Channel): CatalogChannel {
  return {
    v: 1,
    id: channel.id,
    type: channel.type,
    name: channel.name,
    key_encrypted: channel.keyEncrypted,
    base_url: channel.baseUrl,
    models: channel.models,
    model_mapping: channel.modelMapping,
    groups: channel.groups,
    priority: channel.priority,
    weight: channel.weight,
    tag: channel.tag,
    status: channel.status,
    auto_ban: channel.autoBan,
    test_model: channel.testModel,
    max_concurrency: channel.maxConcurrency,
    ...(channel.type === CHANNEL_TYPES.azure && channel.other !== '' ? { api_version: channel.other } : {}),
    updated_at: seconds(channel.updatedAt),
  };
}

/** The whole channel on the compacted catalog.channel topic, keyed by id. */
export function catalogChannelEvent(channel: Channel): OutgoingEvent {
  return { topic: TOPICS.catalogChannel.name, key: String(channel.id), value: catalogChannel(channel) };
}

/** A deleted channel: compaction forgets it, relay stops routing to it. */
export function catalogChannelTombstone(id: number): OutgoingEvent {
  return { topic: TOPICS.catalogChannel.name, key: String(id), value: null };
}
