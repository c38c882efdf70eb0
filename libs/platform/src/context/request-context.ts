import { AsyncLocalStorage } from 'node:async_hooks';
import type { Identity } from '../identity/identity';

/** What every log line, outgoing event and error report of one unit of work can be tied to. */
export interface RequestContext {
  /** This request (or consumed message) — echoed to the caller as `x-request-id`. */
  readonly requestId: string;
  /** The whole flow across services and events; equals `requestId` where the flow starts. */
  readonly correlationId: string;
  /** Set by the identity guard once the internal token is verified. */
  identity?: Identity;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const currentRequestContext = (): RequestContext | undefined => storage.getStore();

export const runWithRequestContext = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);
