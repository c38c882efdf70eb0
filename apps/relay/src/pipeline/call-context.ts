import type { ApiProtocol } from '@tollgate/contracts';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER, type CorrelationHeaders } from '@tollgate/platform';
import type { Caller } from '../access/caller-access';

/**
 * One /v1 call as the pipeline sees it once the key was accepted. It is also the call's request
 * context, carried explicitly: relay enters no async-local storage (see start-relay.ts), so whatever
 * logs or publishes for the call takes its ids from here.
 */
export interface CallContext {
  requestId: string;
  /** The whole flow across services (the caller's `x-correlation-id`), else the request id. */
  correlationId: string;
  protocol: ApiProtocol;
  caller: Caller;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The chat service's calls: the stream ends with the call's charge (CHAT_CHARGE_EVENT) before its last line. */
  reportsCharge?: boolean;
}

type CallIds = Pick<CallContext, 'requestId' | 'correlationId'>;

/** The call's ids for a log line, as the platform's log mixin writes a request's (correlationId only when it differs). */
export function callLogIds({ requestId, correlationId }: CallIds): {
  requestId: string;
  correlationId?: string;
} {
  return correlationId === requestId ? { requestId } : { requestId, correlationId };
}

/** The call's ids as headers of an event it publishes, so consumers log under the same flow. */
export function correlationHeadersOf({ requestId, correlationId }: CallIds): CorrelationHeaders {
  return { [REQUEST_ID_HEADER]: requestId, [CORRELATION_ID_HEADER]: correlationId };
}
