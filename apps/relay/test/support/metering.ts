import type { UsageRecorded } from '@tollgate/contracts';
import { MemoryKvStore, type KvStore } from '@tollgate/kv';
import type { CorrelationHeaders, Logger } from '@tollgate/platform';
import type { GenAiSpans } from '../../src/pipeline/gen-ai-spans';
import { Metering } from '../../src/pipeline/metering';
import type { RelayMetrics } from '../../src/pipeline/relay-metrics';
import type { CostTerms } from '../../src/pricing/call-cost';
import { PerCallClaims } from '../../src/quota/account-claims';
import { QuotaReservations } from '../../src/quota/quota-reservations';

/** A logger that says nothing, for units that take one. */
export const silentLogger = {
  warn: () => undefined,
  error: () => undefined,
  info: () => undefined,
} as unknown as Logger;

export interface TestMeteringOptions {
  metrics: RelayMetrics;
  costTerms: CostTerms;
  /** The user's balance, read at each reservation. */
  quotaOf?: () => number;
  kv?: KvStore;
  /** Where the usage events go. */
  events?: UsageRecorded[];
  /** And the headers each was recorded with. */
  headers?: CorrelationHeaders[];
  now?: () => number;
  spans?: GenAiSpans;
  /** The answer length reserved for a call that names none (100 unless said). */
  defaultMaxOutputTokens?: number;
  /** When the broker acknowledges each usage event (at once unless said). */
  acknowledged?: () => Promise<void>;
  logger?: Logger;
}

/** Relay's metering on per-call claims in a key-value store, as the hot path composes it. */
export function aMetering(options: TestMeteringOptions): Metering {
  const { events, headers } = options;
  return new Metering({
    reservations: new QuotaReservations(
      new PerCallClaims(options.kv ?? new MemoryKvStore(), { reservationTtlMs: 60_000, holdMs: 60_000 }),
      { quotaOf: options.quotaOf ?? (() => 1_000_000) },
    ),
    sink: {
      record: async (event, recordedWith) => {
        events?.push(event);
        headers?.push(recordedWith);
        await options.acknowledged?.();
      },
    },
    metrics: options.metrics,
    logger: options.logger ?? silentLogger,
    estimatePolicy: { defaultMaxOutputTokens: options.defaultMaxOutputTokens ?? 100 },
    now: options.now ?? (() => 0),
    ...(options.spans === undefined ? {} : { spans: options.spans }),
    costTerms: () => options.costTerms,
  });
}
