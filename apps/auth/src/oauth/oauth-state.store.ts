import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { OAUTH_STATE_TTL_SECONDS } from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { z } from 'zod';

const storedStateSchema = z.object({
  /** SHA-256 of the browser's nonce cookie: the state works only in the browser that asked for it. */
  browser: z.string(),
  aff: z.string().nullable(),
  consented: z.boolean(),
});
export type OAuthState = Omit<z.infer<typeof storedStateSchema>, 'browser'>;

export interface IssuedState {
  state: string;
  /** Goes into an HttpOnly cookie; the return call must bring it. */
  browserNonce: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** One-time OAuth states in the key-value store, valid OAUTH_STATE_TTL_SECONDS. */
@Injectable()
export class OAuthStateStore {
  constructor(@Inject(KV_STORE) private readonly kv: KvStore) {}

  async issue(state: OAuthState): Promise<IssuedState> {
    const issued = {
      state: randomBytes(24).toString('base64url'),
      browserNonce: randomBytes(24).toString('base64url'),
    };
    const stored = { ...state, browser: digest(issued.browserNonce).toString('hex') };
    await this.kv.set(this.key(issued.state), JSON.stringify(stored), OAUTH_STATE_TTL_SECONDS * 1000);
    return issued;
  }

  /** The state's data when it is live and the browser's nonce matches; used up either way. */
  async consume(state: string, browserNonce: string | undefined): Promise<OAuthState | null> {
    const raw = await this.kv.take(this.key(state));
    if (raw === null || !browserNonce) return null;
    const parsed = storedStateSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    if (!timingSafeEqual(Buffer.from(parsed.data.browser, 'hex'), digest(browserNonce))) return null;
    return { aff: parsed.data.aff, consented: parsed.data.consented };
  }

  private key(state: string): string {
    return `auth:oauth:state:${createHash('sha256').update(state).digest('hex')}`;
  }
}
