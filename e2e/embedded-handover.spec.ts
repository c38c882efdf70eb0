import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import {
  chunkedBody,
  eventually,
  freePort,
  headersToCompare,
  seedModelThroughAdmin,
  startFakeUpstream,
  type AdminCall,
  type FakeUpstream,
} from '@tollgate/testing';
import { type EmbeddedRun, killEmbeddedRuns, startEmbedded } from './support/embedded-run';

jest.setTimeout(300_000);

const MODEL = 'handover-model';
const PASSWORD = 'correct-horse-9';
const ORIGIN = 'https://app.example.com';
const BODY_LIMIT = 65_536;
/** A key that may be used from this address only: the address the gateway resolves from X-Forwarded-For. */
const PINNED_IP = '203.0.113.7';
/** Headers whose values differ from one answer to the next whoever serves it. */
const VARYING = ['date', 'content-length'];

type Headers = Record<string, string | string[] | undefined>;

interface Platform {
  run: EmbeddedRun;
  base: string;
  /** A key usable from anywhere. */
  key: string;
  /** A key usable from PINNED_IP only. */
  pinnedKey: string;
}

/** A signed-in session's JSON calls, as the web client makes them. */
async function signIn(base: string, username: string, password: string) {
  const cookies = new Map<string, string>();
  let userId = '';
  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        ...(cookies.size ? { cookie: [...cookies].map(([n, v]) => `${n}=${v}`).join('; ') } : {}),
        ...(userId ? { 'new-api-user': userId } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(';')[0]!;
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return { status: response.status, body: (await response.json()) as { data?: unknown } };
  };
  const login = await call('/api/user/login', { body: { username, password } });
  if (login.status !== 200) throw new Error(`${username} could not sign in: ${JSON.stringify(login.body)}`);
  userId = String((login.body.data as { id: number }).id);
  return call;
}

/** A platform from `npm start`'s entry point, its model seeded, a user with two keys. */
async function startPlatform(upstream: FakeUpstream, env: Record<string, string>): Promise<Platform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-handover-'));
  const rootPassword = `Root-${randomBytes(6).toString('hex')}`;
  const port = await freePort();
  const run = startEmbedded(dataDir, port, {
    TOLLGATE_ROOT_PASSWORD: rootPassword,
    LOG_LEVEL: 'warn',
    CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
    GATEWAY_BODY_LIMIT_BYTES: String(BODY_LIMIT),
    GATEWAY_TRUSTED_PROXIES: 'loopback',
    CORS_ORIGINS: ORIGIN,
    ...env,
  });
  run.exited.then(
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => undefined,
  );
  const base = `http://127.0.0.1:${port}`;
  await eventually(
    'the embedded platform',
    async () => {
      if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
      return (await fetch(`${base}/health/ready`).catch(() => undefined))?.ok ? true : undefined;
    },
    180_000,
  );

  const admin = await signIn(base, 'root', rootPassword);
  const operator: AdminCall = (path, method, body) => admin(path, { method, body });
  await seedModelThroughAdmin(operator, { model: MODEL, upstreamUrl: upstream.url });
  const username = `u${randomBytes(5).toString('hex')}`;
  const created = await admin('/api/user/', { body: { username, password: PASSWORD } });
  const id = (created.body.data as { id: number }).id;
  await admin('/api/user/', { method: 'PUT', body: { id, quota: 500_000_000 } });
  const user = await signIn(base, username, PASSWORD);
  const keyOf = async (name: string, extra: Record<string, unknown>) => {
    const token = await user('/api/token/', { body: { name, unlimited_quota: true, ...extra } });
    const copied = await user(`/api/token/${(token.body.data as { id: number }).id}/key`, { method: 'POST' });
    return (copied.body.data as { key: string }).key;
  };
  const key = await keyOf('open', {});
  const pinnedKey = await keyOf('pinned', { allow_ips: [PINNED_IP] });
  await eventually('relay to know both keys and the model', async () => {
    for (const k of [key, pinnedKey]) {
      const models = await fetch(`${base}/v1/models`, {
        headers: { authorization: `Bearer ${k}`, 'x-forwarded-for': PINNED_IP },
      });
      if (models.status !== 200) return undefined;
      const ids = ((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id);
      if (!ids.includes(MODEL)) return undefined;
    }
    return true;
  });
  return { run, base, key, pinnedKey };
}

/**
 * Embedded mode hands relay its /v1 calls in-process (the gateway gives relay's server the client's own
 * request and response) instead of forwarding them over a second HTTP exchange. What a client sees must
 * be what it saw before: the same platform with TOLLGATE_EMBEDDED_HANDOVER=0 forwards, and answers the
 * same calls, refusals and client addresses alike.
 */
describe('embedded mode: /v1 calls handed to relay in-process', () => {
  let upstream: FakeUpstream;
  let handing: Platform;
  let forwarding: Platform;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ chunks: 4, completionTokens: 8 });
    [handing, forwarding] = await Promise.all([
      startPlatform(upstream, {}),
      startPlatform(upstream, { TOLLGATE_EMBEDDED_HANDOVER: '0' }),
    ]);
  });

  afterAll(async () => {
    await killEmbeddedRuns([handing?.run, forwarding?.run].filter((r): r is EmbeddedRun => r !== undefined));
    await upstream?.close();
  });

  async function call(
    platform: Platform,
    path: string,
    init: {
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string | Readable;
      key?: string;
    },
  ) {
    // A connection of its own per call: a refusal (the 413s) closes the client's connection, and a call
    // that raced that close on a shared one would fail for the test's sake, not the platform's.
    const client = new Agent({ keepAliveTimeout: 2000 });
    const response = await request(`${platform.base}${path}`, {
      dispatcher: client,
      method: init.method ?? 'POST',
      headers: {
        ...(init.key === '' ? {} : { authorization: `Bearer ${init.key ?? platform.key}` }),
        'content-type': 'application/json',
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const answer = {
      status: response.statusCode,
      headers: response.headers as Headers,
      text: await response.body.text(),
    };
    await client.close();
    return answer;
  }

  /** The same call to both platforms, one after the other. */
  async function both(
    path: string,
    init: Parameters<typeof call>[2] | ((p: Platform) => Parameters<typeof call>[2]),
  ) {
    const initOf = typeof init === 'function' ? init : () => init;
    return {
      handed: await call(handing, path, initOf(handing)),
      forwarded: await call(forwarding, path, initOf(forwarding)),
    };
  }

  const chatBody = (stream: boolean) =>
    JSON.stringify({ model: MODEL, stream, messages: [{ role: 'user', content: 'Hello' }] });

  it('answers a plain and a streamed call with the status and headers of a forwarded one, CORS headers included', async () => {
    for (const stream of [false, true]) {
      for (const origin of [false, true]) {
        const headers = {
          'x-request-id': `e2e-handover-${stream}-${origin}`,
          ...(origin ? { origin: ORIGIN } : {}),
        };
        const { handed, forwarded } = await both('/v1/chat/completions', { headers, body: chatBody(stream) });

        expect(handed.status).toBe(200);
        expect(forwarded.status).toBe(200);
        expect(headersToCompare(handed.headers, VARYING)).toEqual(
          headersToCompare(forwarded.headers, VARYING),
        );
        expect(handed.headers['x-request-id']).toBe(headers['x-request-id']);
        if (origin) expect(handed.headers['access-control-allow-origin']).toBe(ORIGIN);
        if (stream) {
          expect(handed.text).toContain('"chat.completion.chunk"');
          expect(handed.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
        } else {
          const content = (text: string) =>
            (JSON.parse(text) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
          expect(content(handed.text)).toBe(content(forwarded.text));
        }
      }
    }
  });

  it('refuses a body over the gateway’s limit, declared or chunked, with the gateway’s 413 as before', async () => {
    const declared = await both('/v1/messages', {
      headers: { 'x-request-id': 'e2e-handover-413a' },
      body: JSON.stringify({ model: MODEL, pad: 'x'.repeat(BODY_LIMIT) }),
    });
    const chunked = await both('/v1/messages', () => ({
      headers: { 'x-request-id': 'e2e-handover-413b' },
      body: chunkedBody(BODY_LIMIT * 2),
    }));

    for (const { handed, forwarded } of [declared, chunked]) {
      expect(handed.status).toBe(413);
      expect(handed.text).toBe(forwarded.text);
      expect(handed.text).toContain(`larger than ${BODY_LIMIT} bytes`);
      expect(headersToCompare(handed.headers, VARYING)).toEqual(headersToCompare(forwarded.headers, VARYING));
    }
  });

  it('answers malformed JSON with relay’s 400 as before, keeping the connection', async () => {
    const { handed, forwarded } = await both('/v1/chat/completions', {
      headers: { 'x-request-id': 'e2e-handover-400' },
      body: '{"model":',
    });

    expect(handed.status).toBe(400);
    expect(handed.text).toBe(forwarded.text);
    expect(headersToCompare(handed.headers, VARYING)).toEqual(headersToCompare(forwarded.headers, VARYING));
    expect(handed.headers.connection).toBe('keep-alive');
  });

  it('answers a path relay does not serve, and a call without a key, as before', async () => {
    const unknown = await both('/v1/no-such-call', {
      method: 'GET',
      headers: { 'x-request-id': 'e2e-handover-404' },
    });
    const keyless = await both('/v1/chat/completions', {
      key: '',
      headers: { 'x-request-id': 'e2e-handover-401' },
      body: chatBody(false),
    });

    for (const { handed, forwarded } of [unknown, keyless]) {
      expect(handed.status).toBeGreaterThanOrEqual(400);
      expect(handed.status).toBe(forwarded.status);
      expect(handed.text).toBe(forwarded.text);
      expect(headersToCompare(handed.headers, VARYING)).toEqual(headersToCompare(forwarded.headers, VARYING));
    }
  });

  it('lets relay apply a key’s IP allow-list to the address the gateway resolved', async () => {
    const from = (ip: string | undefined) =>
      both('/v1/chat/completions', (platform) => ({
        key: platform.pinnedKey,
        headers: ip === undefined ? {} : ({ 'x-forwarded-for': ip } as Record<string, string>),
        body: chatBody(false),
      }));

    const pinned = await from(PINNED_IP);
    const elsewhere = await from('198.51.100.1');
    const local = await from(undefined);

    expect([pinned.handed.status, pinned.forwarded.status]).toEqual([200, 200]);
    for (const refused of [elsewhere, local]) {
      expect(refused.handed.status).toBe(403);
      expect(refused.handed.text).toBe(refused.forwarded.text);
    }
  });
});
