import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectServiceConfig } from '@tollgate/platform';
import { z } from 'zod';
import type { AuthConfig } from '../config';

const storedSessionSchema = z.object({
  userId: z.number().int().positive(),
  sessionId: z.string().min(1),
  createdAt: z.number().int(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

export interface StartedSession {
  /** The cookie value: 256 random bits, known only to the browser (the store keeps its hash). */
  secret: string;
  sessionId: string;
  maxAgeSeconds: number;
}

/**
 * Browser sessions in the key-value store, keyed by a hash of the cookie value so that a look at
 * the store reveals no usable cookie.
 */
@Injectable()
export class SessionStore {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectServiceConfig() private readonly config: AuthConfig,
  ) {}

  async start(userId: number): Promise<StartedSession> {
    const secret = randomBytes(32).toString('base64url');
    const session: StoredSession = { userId, sessionId: randomUUID(), createdAt: Date.now() };
    const maxAgeSeconds = this.config.AUTH_SESSION_TTL_HOURS * 3600;
    await this.kv.set(this.key(secret), JSON.stringify(session), maxAgeSeconds * 1000);
    return { secret, sessionId: session.sessionId, maxAgeSeconds };
  }

  async find(secret: string): Promise<StoredSession | null> {
    const raw = await this.kv.get(this.key(secret));
    if (raw === null) return null;
    const parsed = storedSessionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  }

  async end(secret: string): Promise<void> {
    await this.kv.del(this.key(secret));
  }

  private key(secret: string): string {
    return `auth:session:${createHash('sha256').update(secret).digest('hex')}`;
  }
}
