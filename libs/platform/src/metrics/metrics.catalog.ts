/**
 * Every metric any service exposes. Labels hold bounded values only (route templates, catalog model and
 * channel ids, status codes, fixed reasons), never text a user typed: an unknown model is "unknown".
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const OVERHEAD_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];
const TOKEN_BUCKETS = [16, 64, 256, 1024, 4096, 16384, 65536, 262144];

export const METRICS = {
  httpRequestDuration: {
    type: 'histogram',
    name: 'tollgate_http_request_duration_seconds',
    help: 'HTTP requests served, by method, route template and status',
    labels: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
  },
  relayRequests: {
    type: 'counter',
    name: 'tollgate_relay_requests_total',
    help: 'Relayed model calls, by protocol, catalog model, provider and outcome',
    labels: ['protocol', 'model', 'provider', 'outcome'],
  },
  relayUpstreamLatency: {
    type: 'histogram',
    name: 'tollgate_relay_upstream_latency_seconds',
    help: 'Time from sending a request upstream to its last byte',
    labels: ['provider', 'channel', 'model'],
    buckets: LATENCY_BUCKETS,
  },
  relayTimeToFirstToken: {
    type: 'histogram',
    name: 'tollgate_relay_time_to_first_token_seconds',
    help: 'Time from receiving a streamed call to sending its first token',
    labels: ['provider', 'model'],
    buckets: LATENCY_BUCKETS,
  },
  relayTokens: {
    type: 'histogram',
    name: 'tollgate_relay_tokens',
    help: 'Tokens per relayed call, by kind (prompt or completion)',
    labels: ['model', 'kind'],
    buckets: TOKEN_BUCKETS,
  },
  relayRetries: {
    type: 'counter',
    name: 'tollgate_relay_retries_total',
    help: 'Calls retried on another channel, by reason (connect, first_byte_timeout, rate_limited, upstream_5xx, invalid_key, quota_exhausted, queue)',
    labels: ['provider', 'reason'],
  },
  relayUpstreamAttempts: {
    type: 'counter',
    name: 'tollgate_relay_upstream_attempts_total',
    help: 'Attempts to serve a call on a channel, by how each ended before the answer began (ok, upstream_5xx, upstream_429, auth, timeout_first_byte, connect_error, client_abandoned, other)',
    labels: ['provider', 'channel', 'model', 'outcome'],
  },
  channelHealthy: {
    type: 'gauge',
    name: 'tollgate_channel_healthy',
    help: '1 while a channel is considered healthy, 0 while it is held out',
    labels: ['channel', 'provider'],
  },
  relayQueueDepth: {
    type: 'gauge',
    name: 'tollgate_relay_queue_depth',
    help: 'Calls waiting for a free slot on a channel',
    labels: ['channel'],
  },
  relayQueueWait: {
    type: 'histogram',
    name: 'tollgate_relay_queue_wait_seconds',
    help: 'Time calls waited for a slot on a channel, by how the wait ended (granted, timeout, aborted)',
    labels: ['channel', 'outcome'],
    buckets: LATENCY_BUCKETS,
  },
  refusedReservations: {
    type: 'counter',
    name: 'tollgate_refused_reservations_total',
    help: 'Quota reservations refused before any upstream call, by reason',
    labels: ['reason'],
  },
  gatewayOverhead: {
    type: 'histogram',
    name: 'tollgate_gateway_overhead_seconds',
    help: 'Time the gateway adds to a proxied request, excluding the backend',
    labels: ['route'],
    buckets: OVERHEAD_BUCKETS,
  },
  outboxLag: {
    type: 'gauge',
    name: 'tollgate_outbox_lag_seconds',
    help: 'Age of the oldest unpublished outbox event',
    labels: ['topic'],
  },
  consumerLag: {
    type: 'gauge',
    name: 'tollgate_consumer_lag_messages',
    help: 'Messages between a consumer group position and the end of a partition',
    labels: ['topic', 'group', 'partition'],
  },
  usageEvents: {
    type: 'counter',
    name: 'tollgate_billing_usage_events_total',
    help: 'usage.recorded events billing handled, by outcome (settled now, or duplicate of one settled before)',
    labels: ['outcome'],
  },
  chargedQuota: {
    type: 'counter',
    name: 'tollgate_billing_charged_quota_total',
    help: 'Quota charged for usage (500 000 = $1), by catalog model',
    labels: ['model'],
  },
  ledgerAuditMismatches: {
    type: 'gauge',
    name: 'tollgate_ledger_audit_mismatched_accounts',
    help: 'Accounts whose balance differed from the sum of their ledger entries at the last audit',
    labels: [],
  },
  ledgerAuditLastRun: {
    type: 'gauge',
    name: 'tollgate_ledger_audit_last_run_timestamp_seconds',
    help: 'When the ledger audit last completed, Unix seconds',
    labels: [],
  },
  payments: {
    type: 'gauge',
    name: 'tollgate_payments',
    help: 'Payments ever created, by provider and current status',
    labels: ['provider', 'status'],
  },
  paymentsAmount: {
    type: 'gauge',
    name: 'tollgate_payments_amount_kopecks',
    help: 'Rubles of the payments ever created, in kopecks, by provider and current status',
    labels: ['provider', 'status'],
  },
  activeApiKeys: {
    type: 'gauge',
    name: 'tollgate_active_api_keys',
    help: 'API keys charged for at least one call within the window (1h or 1d)',
    labels: ['window'],
  },
  activeUsers: {
    type: 'gauge',
    name: 'tollgate_active_users',
    help: 'Users charged for at least one call within the window (1h or 1d)',
    labels: ['window'],
  },
} as const satisfies Record<string, MetricDefinition>;

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDefinition {
  readonly type: MetricType;
  readonly name: string;
  readonly help: string;
  readonly labels: readonly string[];
  readonly buckets?: readonly number[];
}

export type MetricKey = keyof typeof METRICS;
export type MetricKeyOfType<T extends MetricType> = {
  [K in MetricKey]: (typeof METRICS)[K]['type'] extends T ? K : never;
}[MetricKey];
export type MetricLabel<K extends MetricKey> = (typeof METRICS)[K]['labels'][number];
