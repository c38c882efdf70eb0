import type { AttemptFailure } from './attempt-failure';
import { detectChannelFault, type ChannelFault } from './channel-fault';
import { isContextLengthRefusal } from './context-length';

/** What one failed attempt means for routing. */
export interface FailureVerdict {
  /** Another channel may serve the same request (nothing has reached the client yet). */
  retriable: boolean;
  /** The channel's key or quota is gone: a reason to auto-ban it. */
  fault: ChannelFault | undefined;
  /** Whether it counts as a failure of the channel for its circuit breaker. */
  breakerFailure: boolean;
}

const THE_REQUESTS_OWN_FAULT: FailureVerdict = { retriable: false, fault: undefined, breakerFailure: false };

/**
 * Connect errors, 429 and 5xx are the upstream's trouble, and so is a dead key or an empty account;
 * every other error status (400, 404, 413, …) is the request's own fault, would fail the same way
 * elsewhere, and shows the channel is up. A prompt too long for the model is the request's fault
 * whatever else its words say (an "invalid_request_error" is no dead key).
 */
export function classifyFailure(failure: AttemptFailure): FailureVerdict {
  if (failure.kind === 'connect') return { retriable: true, fault: undefined, breakerFailure: true };
  if (isContextLengthRefusal(failure)) return THE_REQUESTS_OWN_FAULT;
  const fault = detectChannelFault(failure);
  const upstreamTrouble = failure.status === 429 || failure.status >= 500;
  return {
    retriable: upstreamTrouble || fault !== undefined,
    fault,
    breakerFailure: upstreamTrouble || fault !== undefined,
  };
}
