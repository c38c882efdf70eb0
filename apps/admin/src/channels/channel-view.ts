import type { ChannelBreaker, ChannelView } from '@tollgate/contracts';
import type { Channel } from './channel.entity';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);

/**
 * A channel as the admin API shows it (new-api's shape, plus `test_error`, `stream_headers_timeout`
 * and `breaker`), its key masked; `breaker`: relay's, when its circuit holds the channel out.
 */
export function channelView(channel: Channel, breaker: ChannelBreaker | null = null): ChannelView {
  return {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    key: channel.keyMasked,
    base_url: channel.baseUrl,
    models: channel.models.join(','),
    model_mapping: Object.keys(channel.modelMapping).length > 0 ? JSON.stringify(channel.modelMapping) : '',
    group: channel.groups.join(','),
    priority: channel.priority,
    weight: channel.weight,
    tag: channel.tag,
    status: channel.status,
    status_reason: channel.statusReason,
    status_time: seconds(channel.statusChangedAt),
    auto_ban: channel.autoBan ? 1 : 0,
    test_model: channel.testModel,
    response_time: channel.responseTime,
    test_time: seconds(channel.testedAt),
    test_error: channel.testError,
    used_quota: channel.usedQuota,
    max_concurrency: channel.maxConcurrency,
    other: channel.other,
    created_time: seconds(channel.createdAt),
    stream_headers_timeout: channel.streamHeadersTimeout,
    breaker,
  };
}

/**
 * A channel as the audit trail keeps it: its settings, not its traffic counters; the sealed key
 * stands in for the key so that a new key shows as changed (its value is redacted on the way out).
 */
export function channelAuditSnapshot(channel: Channel): Record<string, unknown> {
  const {
    response_time: _r,
    test_time: _t,
    test_error: _e,
    used_quota: _u,
    status_time: _s,
    breaker: _b,
    ...settings
  } = channelView(channel);
  return { ...settings, key: channel.keyEncrypted };
}
