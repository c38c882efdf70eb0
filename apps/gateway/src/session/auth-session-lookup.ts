import {
  envelopeSchema,
  SESSION_LOOKUP,
  sessionIdentitySchema,
  type SessionIdentity,
  type SessionLookupRequest,
} from '@tollgate/contracts';
import type { Dispatcher } from 'undici';
import type { ServiceTokenSigner } from '@tollgate/platform';

/**
 * Asks auth who a session cookie value or a personal access token belongs to; null when nobody
 * (ended, expired, unknown).
 */
export type SessionLookup = (request: SessionLookupRequest) => Promise<SessionIdentity | null>;

// Generous: a look-up is one indexed read, but a machine under load (CI, a spike) can take seconds.
const LOOKUP_TIMEOUT_MS = 10_000;
const lookupAnswer = envelopeSchema(sessionIdentitySchema);

export class SessionLookupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SessionLookupError';
  }
}

export function authSessionLookup(auth: Dispatcher, signer: ServiceTokenSigner): SessionLookup {
  return async (lookup) => {
    let response;
    try {
      response = await auth.request({
        method: SESSION_LOOKUP.method,
        path: SESSION_LOOKUP.path,
        headers: { 'content-type': 'application/json', [SESSION_LOOKUP.header]: await signer.token() },
        body: JSON.stringify(lookup),
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      });
    } catch (error) {
      throw new SessionLookupError('auth could not be reached for a session look-up', { cause: error });
    }
    const { statusCode, body } = response;
    if (statusCode === 401) {
      await body.dump();
      return null;
    }
    if (statusCode !== 200) {
      await body.dump();
      throw new SessionLookupError(`auth answered a session look-up with ${statusCode}`);
    }
    const parsed = lookupAnswer.safeParse(await body.json());
    if (!parsed.success || !parsed.data.data) {
      throw new SessionLookupError('auth answered a session look-up in an unexpected shape');
    }
    return parsed.data.data;
  };
}
