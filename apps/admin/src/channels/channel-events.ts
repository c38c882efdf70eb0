import {
  CHANNEL_TYPES,
  ChannelStatus,
  TOPICS,
  type CatalogChannel,
  type CatalogChannelModels,
} from '@tollgate/contracts';
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
    ...(channel.streamHeadersTimeout === null
      ? {}
      : { stream_headers_timeout_seconds: channel.streamHeadersTimeout }),
    updated_at: seconds(channel.updatedAt),
  };
}

/** The whole channel on the compacted catalog.channel topic, keyed by id. */
export function catalogChannelEvent(channel: Channel): OutgoingEvent {
  return { topic: TOPICS.catalogChannel.name, key: String(channel.id), value: catalogChannel(channel) };
}

/** What the channel serves and for whom, as billing's price list reads it: nothing else of the channel. */
export function catalogChannelModels(channel: Channel): CatalogChannelModels {
  const models = new Set(
    [...channel.models, ...Object.keys(channel.modelMapping)].filter((name) => name !== ''),
  );
  return {
    v: 1,
    id: channel.id,
    enabled: channel.status === ChannelStatus.Enabled,
    groups: channel.groups,
    models: [...models],
    updated_at: seconds(channel.updatedAt),
  };
}

/** The slim copy on the compacted catalog.channel-models topic, keyed by id. */
export function catalogChannelModelsEvent(channel: Channel): OutgoingEvent {
  return {
    topic: TOPICS.catalogChannelModels.name,
    key: String(channel.id),
    value: catalogChannelModels(channel),
  };
}

/** Every event a created or changed channel publishes, in one transaction with the change. */
export function channelEvents(channel: Channel): OutgoingEvent[] {
  return [catalogChannelEvent(channel), catalogChannelModelsEvent(channel)];
}

/** A deleted channel: compaction forgets it, relay stops routing to it, billing stops listing its models. */
export function channelTombstones(id: number): OutgoingEvent[] {
  return [
    { topic: TOPICS.catalogChannel.name, key: String(id), value: null },
    { topic: TOPICS.catalogChannelModels.name, key: String(id), value: null },
  ];
}
