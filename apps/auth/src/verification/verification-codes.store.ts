import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KV_STORE, type KvStore } from '@tollgate/kv';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_COOLDOWN_MS = 60_000;
/** Wrong guesses before a code is thrown away: a 6-digit code must not be guessable by trying. */
const MAX_ATTEMPTS = 5;

/** What a code is for: confirming an address at registration, or resetting a password. */
export type CodePurpose = 'verification' | 'reset';

export type IssueOutcome = { kind: 'issued'; code: string } | { kind: 'cooldown'; retryAfterSeconds: number };

const digest = (code: string) => createHash('sha256').update(code).digest();

/**
 * One-time e-mail codes in the key-value store: one per address and purpose, valid 10 minutes, at most one
 * issued per minute, kept only as a hash.
 */
@Injectable()
export class VerificationCodesStore {
  constructor(@Inject(KV_STORE) private readonly kv: KvStore) {}

  async issue(purpose: CodePurpose, email: string): Promise<IssueOutcome> {
    const keys = this.keys(purpose, email);
    if (!(await this.kv.setIfAbsent(keys.cooldown, '1', CODE_COOLDOWN_MS))) {
      const ttl = await this.kv.ttl(keys.cooldown);
      return { kind: 'cooldown', retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.kv.del(keys.attempts);
    await this.kv.set(keys.code, digest(code).toString('hex'), CODE_TTL_MS);
    return { kind: 'issued', code };
  }

  /** Undoes an issue whose mail could not be sent, so the person can ask again at once. */
  async withdraw(purpose: CodePurpose, email: string): Promise<void> {
    const keys = this.keys(purpose, email);
    await this.kv.del(keys.code);
    await this.kv.del(keys.cooldown);
  }

  /**
   * Whether `code` is the live code of the address. Every try is counted before the comparison, so
   * guesses sent all at once get no more than MAX_ATTEMPTS comparisons between them; the code is
   * thrown away at the last wrong one.
   */
  async matches(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    const keys = this.keys(purpose, email);
    const stored = await this.kv.get(keys.code);
    if (!stored || !/^\d{6}$/.test(code)) return false;
    const attempt = await this.kv.incr(keys.attempts, CODE_TTL_MS);
    if (attempt > MAX_ATTEMPTS) return false;
    if (timingSafeEqual(Buffer.from(stored, 'hex'), digest(code))) return true;
    if (attempt === MAX_ATTEMPTS) await this.kv.del(keys.code);
    return false;
  }

  async consume(purpose: CodePurpose, email: string): Promise<void> {
    const keys = this.keys(purpose, email);
    await this.kv.del(keys.code);
    await this.kv.del(keys.attempts);
  }

  private keys(purpose: CodePurpose, email: string) {
    return {
      code: `auth:${purpose}:code:${email}`,
      cooldown: `auth:${purpose}:cooldown:${email}`,
      attempts: `auth:${purpose}:attempts:${email}`,
    };
  }
}
