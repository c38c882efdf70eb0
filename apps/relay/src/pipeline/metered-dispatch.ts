import type { NormalizedUsage } from '../canonical';
import type { Quote } from '../pricing/price-book';
import type { CallStatus } from '../usage/usage-event';
import type { CallContext } from './call-context';
import { ClientGoneError, type ClientReply } from './client-reply';
import type { GenAiOperation } from './gen-ai-spans';
import type { MeteredCall } from './metering';
import type { RelayMetrics } from './relay-metrics';
import type { BuildUpstreamRequest, Dispatched, UpstreamDispatcher } from './upstream-dispatcher';

/** How an answer went, once it was relayed to the client. */
export interface RelayedAnswer {
  usage: NormalizedUsage;
  status: CallStatus;
  ttftMs: number | null;
  stream: boolean;
  /** The answer's `id`, for GET /v1/generation. */
  responseId?: string;
}

export interface MeteredDispatchDeps {
  dispatcher: UpstreamDispatcher;
  metrics: RelayMetrics;
  now: () => number;
}

export interface MeteredDispatch {
  context: CallContext;
  quote: Quote;
  /** The model the channels are chosen for (after the key's aliases). */
  model: string;
  metered: MeteredCall;
  reply: ClientReply;
  operation: GenAiOperation;
  build: BuildUpstreamRequest;
  relay(dispatched: Dispatched): Promise<RelayedAnswer>;
}

/**
 * A metered call's upstream part, shared by the pass-through and audio relays: send to the first
 * channel that answers, relay the answer, free the channel, and settle — or hand the reservation back
 * when nothing was served.
 */
export async function dispatchMetered(deps: MeteredDispatchDeps, call: MeteredDispatch): Promise<void> {
  const { context, metered, reply } = call;
  let dispatched: Dispatched;
  try {
    dispatched = await deps.dispatcher.dispatch(context, call.model, reply.signal, call.build);
  } catch (error) {
    await metered.abandon();
    throw error;
  }
  const { route, adapter, release } = dispatched;
  let answer: RelayedAnswer;
  try {
    answer = await call.relay(dispatched);
  } catch (error) {
    await metered.abandon();
    if (reply.signal.aborted) throw new ClientGoneError();
    throw error;
  } finally {
    release();
  }
  deps.metrics.upstream(
    adapter.name,
    route.channel.id,
    call.quote.model,
    (deps.now() - dispatched.sentAt) / 1000,
  );
  await metered.finish({
    channel: route.channel,
    provider: adapter.name,
    upstreamModel: route.upstreamModel,
    usage: answer.usage,
    status: answer.status,
    ttftMs: answer.ttftMs,
    isStream: answer.stream,
    operation: call.operation,
    url: dispatched.url,
    sentAt: dispatched.sentAt,
    responseId: answer.responseId,
  });
}
