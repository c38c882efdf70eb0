import { randomBytes } from 'node:crypto';
import { Role } from '@tollgate/contracts';
import { INTERNAL_IDENTITY_HEADER, SERVICE_TOKEN_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import { TEST_OPERATOR_ENV } from '@tollgate/testing';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: { success: boolean; message: string; data?: T } & Record<string, unknown>;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** The caller's role as the gateway vouches for it; null calls without an identity. */
  role?: Role | null;
  /** A service token instead of (or besides) an identity. */
  serviceToken?: string;
  /** The caller's user id (a random one when not given). */
  userId?: number;
  /** The caller's Accept-Language (the web sends the interface language). */
  language?: string;
}

/** Calls admin directly, as the gateway would after its session and role checks. */
export class AdminClient {
  constructor(
    readonly url: string,
    private readonly secret: string,
  ) {}

  async call<T = Record<string, unknown>>(path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const role = options.role === undefined ? Role.Admin : options.role;
    const headers: Record<string, string> = {};
    if (role !== null) {
      headers[INTERNAL_IDENTITY_HEADER] = await signInternalToken(
        { userId: options.userId ?? 1 + randomBytes(2).readUInt16BE(), role, via: 'session' },
        this.secret,
      );
    }
    if (options.serviceToken !== undefined) headers[SERVICE_TOKEN_HEADER] = options.serviceToken;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.language !== undefined) headers['accept-language'] = options.language;
    const response = await fetch(`${this.url}${path}`, {
      method: options.method ?? 'GET',
      headers,
      ...(options.body !== undefined
        ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
        : {}),
    });
    return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
  }
}

/** What every admin under test is started with besides its database. */
export const adminEnv = (databaseUrl: string, secret: string, masterKey: Buffer, extra: Env = {}): Env => ({
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'error',
  DATABASE_URL: databaseUrl,
  TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
  TOLLGATE_ENCRYPTION_KEY: masterKey.toString('base64'),
  CHANNEL_AUTO_ENABLE_INTERVAL_SECONDS: '0',
  ...TEST_OPERATOR_ENV,
  ...extra,
});
