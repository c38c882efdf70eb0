import type { ApiProtocol } from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';

/** One /v1 call as the pipeline sees it once the key was accepted. */
export interface CallContext {
  requestId: string;
  protocol: ApiProtocol;
  caller: Caller;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The chat service's calls: the stream ends with the call's charge (CHAT_CHARGE_EVENT) before its last line. */
  reportsCharge?: boolean;
}
