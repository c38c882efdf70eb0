import type { AttemptFailure } from './attempt-failure';
import { detectChannelFault, type ChannelFault } from './channel-fault';

/** What one failed attempt means for routing. */
export interface FailureVerdict {
  /** Another channel may serve the same request (nothing has reached the client yet). */
  retriable: boolean;
  /** The channel's key or quota is gone: a reason to auto-ban it. */
  fault: ChannelFault | undefined;
  /** Whether it counts as a failure of the channel for its circuit breaker. */
  breakerFailure: boolean;
}

/**
 * Connect errors, 429 and 5xx are the upstream's trouble, and so is a dead key or an empty account;
 * every other error status (400, 404, 413, …) is the request's own fault, would fail the same way
 * elsewhere, and shows the channel is up.
 */
export function classifyFailure(failure: AttemptFailure): FailureVerdict {
  if (failure.kind === 'connect') return { retriable: true, fault: undefined, breakerFailure: true };
  const fault = detectChannelFault(failure);
  const upstreamTrouble = failure.status === 429 || failure.status >= 500;
  return {
    retriable: upstreamTrouble || fault !== undefined,
    fault,
    breakerFailure: upstreamTrouble || fault !== undefined,
  };
}
