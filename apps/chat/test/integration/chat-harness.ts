import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// A chat answer crosses five services: like the launcher, these tests compose them in one process.
/* eslint-disable @nx/enforce-module-boundaries */
import { startAuth } from '@tollgate/auth';
import { startBilling } from '@tollgate/billing';
import { startGateway } from '@tollgate/gateway';
import { startRelay } from '@tollgate/relay';
/* eslint-enable @nx/enforce-module-boundaries */
import { SESSION_COOKIE_NAME, TOPICS } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import type { Env, RunningService } from '@tollgate/runtime';
import {
  eventually,
  freePort,
  openInfrastructure,
  publishFakeUpstreamCatalogue,
  setBalanceThroughBilling,
  startFakeUpstream,
  waitUntilReady,
  withDatabase,
  type FakeUpstream,
  type InfrastructureKind,
  type QueryRows,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startChat } from '../../src';

export const PASSWORD = 'correct-horse-9';
/** The fake upstream's answers: 40 chunks 15 ms apart, long enough to stop one midway. */
export const ANSWER_CHUNKS = 40;

export interface Answer<T = unknown> {
  status: number;
  body: { success: boolean; message: string; data?: T };
}

export interface ChatUser {
  id: number;
  headers: Record<string, string>;
  /** `language` is sent as Accept-Language (the web sends the interface language). */
  call<T = unknown>(
    path: string,
    options?: { method?: string; body?: unknown; language?: string },
  ): Promise<Answer<T>>;
  /** POST /api/chat/{id}/messages, the raw response (a stream or an envelope). */
  send(chatId: number, body: unknown, signal?: AbortSignal, language?: string): Promise<Response>;
}

/**
 * Gateway, auth, billing, relay and chat on one infrastructure, the fake upstream as the only
 * channel. Admin is not started: chat then offers every model relay serves for the user's group.
 */
export class ChatHarness {
  readonly secret = randomBytes(32).toString('hex');
  readonly encryptionKey = randomBytes(32).toString('base64');
  readonly model: string;
  infra!: TestInfrastructureWithDatabase;
  upstream!: FakeUpstream;
  gateway!: RunningService;
  chatDatabase!: TestDatabase;
  private readonly services: RunningService[] = [];
  private chat!: RunningService;
  private chatEnv!: Env;
  private billingUrl!: string;
  private spoolDir?: string;
  private names = 0;

  constructor(
    private readonly kind: InfrastructureKind,
    private readonly name: string,
  ) {
    this.model = `chat-gpt-${randomBytes(3).toString('hex')}`;
  }

  async start(): Promise<void> {
    this.infra = await openInfrastructure(this.kind, this.name);
    await this.infra.runtime.bus.ensureTopics(Object.values(TOPICS));
    this.upstream = await startFakeUpstream({
      completionTokens: ANSWER_CHUNKS,
      chunks: ANSWER_CHUNKS,
      chunkMs: 15,
    });
    const ports = {
      auth: await freePort(),
      billing: await freePort(),
      relay: await freePort(),
      chat: await freePort(),
    };
    const url = (port: number) => `http://127.0.0.1:${port}`;
    const common: Env = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      TOLLGATE_INTERNAL_TOKEN_SECRET: this.secret,
      TOLLGATE_ENCRYPTION_KEY: this.encryptionKey,
      AUTH_URL: url(ports.auth),
      BILLING_URL: url(ports.billing),
      RELAY_URL: url(ports.relay),
      CHAT_URL: url(ports.chat),
      // No admin: its status (chat_models) is unreachable, so every served model is offered.
      ADMIN_URL: 'http://127.0.0.1:9',
    };
    const start = async (run: () => Promise<RunningService>): Promise<RunningService> => {
      const service = await run();
      this.services.push(service);
      await waitUntilReady(service.url);
      return service;
    };
    const authDb = await this.infra.createDatabase();
    const billingDb = await this.infra.createDatabase();
    this.chatDatabase = await this.infra.createDatabase();
    await start(() =>
      startAuth(
        {
          ...common,
          PORT: String(ports.auth),
          DATABASE_URL: authDb.url,
          TOLLGATE_EMAIL_VERIFICATION: 'false',
          TOLLGATE_ROOT_USERNAME: `root${randomBytes(3).toString('hex')}`,
          TOLLGATE_ROOT_PASSWORD: randomBytes(12).toString('hex'),
        },
        this.infra.runtime,
      ),
    );
    const billing = await start(() =>
      startBilling(
        {
          ...common,
          PORT: String(ports.billing),
          DATABASE_URL: billingDb.url,
          CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
        },
        this.infra.runtime,
      ),
    );
    this.billingUrl = billing.url;
    // Relay's usage spool: a directory of the spec's own, never the default under the repository.
    this.spoolDir = await mkdtemp(join(tmpdir(), 'relay-spool-'));
    await start(() =>
      startRelay(
        { ...common, PORT: String(ports.relay), RELAY_USAGE_SPOOL_DIR: this.spoolDir },
        this.infra.runtime,
      ),
    );
    this.chatEnv = {
      ...common,
      PORT: String(ports.chat),
      DATABASE_URL: this.chatDatabase.url,
      CHAT_MODELS_CACHE_MS: '0',
    };
    this.chat = await start(() => startChat(this.chatEnv, this.infra.runtime));
    this.gateway = await start(() =>
      startGateway({ ...common, PORT: '0', LOG_LEVEL: 'silent', GATEWAY_SESSION_CACHE_MS: '0' }),
    );
    await publishFakeUpstreamCatalogue(this.infra.runtime.bus, {
      encryptionKey: this.encryptionKey,
      upstreamUrl: this.upstream.url,
      model: this.model,
    });
  }

  async stop(): Promise<void> {
    for (const service of this.services.reverse()) await service.close().catch(() => undefined);
    await this.upstream?.close();
    await this.infra?.close();
    if (this.spoolDir) await rm(this.spoolDir, { recursive: true, force: true });
  }

  /**
   * Reads the chat database directly. Embedded PGlite serves one connection, which chat holds while it
   * runs: chat is stopped for the query and started again on the same port.
   */
  async withChatStopped<T>(work: (query: QueryRows) => Promise<T>): Promise<T> {
    await this.chat.close();
    this.services.splice(this.services.indexOf(this.chat), 1);
    try {
      return await withDatabase(this.chatDatabase, work);
    } finally {
      this.chat = await startChat(this.chatEnv, this.infra.runtime);
      this.services.push(this.chat);
      await waitUntilReady(this.chat.url);
    }
  }

  /** A newly registered user, signed in through the gateway, with `quota` on their balance. */
  async user(quota: number): Promise<ChatUser> {
    const username = `chat${this.infra.runId.slice(-6)}u${++this.names}`.slice(0, 20);
    const res = await fetch(`${this.gateway.url}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        agree_to_terms: true,
        agree_to_data_processing: true,
      }),
    });
    const body = (await res.json()) as Answer<{ id: number }>['body'];
    if (res.status !== 200) throw new Error(`registration answered ${res.status}: ${body.message}`);
    const session = res.headers
      .getSetCookie()
      .map((cookie) => new RegExp(`^${SESSION_COOKIE_NAME}=([^;]*)`).exec(cookie)?.[1])
      .find((value) => value !== undefined)!;
    const id = body.data!.id;
    await this.setBalance(id, quota);
    const headers = { cookie: `${SESSION_COOKIE_NAME}=${session}`, 'new-api-user': String(id) };
    const gateway = this.gateway.url;
    const user: ChatUser = {
      id,
      headers,
      async call<T>(path: string, options: { method?: string; body?: unknown; language?: string } = {}) {
        const hasBody = options.body !== undefined;
        const answer = await fetch(`${gateway}${path}`, {
          method: options.method ?? (hasBody ? 'POST' : 'GET'),
          headers: {
            ...headers,
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
            ...(options.language ? { 'accept-language': options.language } : {}),
          },
          ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
        });
        return { status: answer.status, body: (await answer.json()) as Answer<T>['body'] };
      },
      send(chatId, message, signal, language) {
        return fetch(`${gateway}/api/chat/${chatId}/messages`, {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            ...(language ? { 'accept-language': language } : {}),
          },
          body: JSON.stringify(message),
          ...(signal ? { signal } : {}),
        });
      },
    };
    // Relay must know the user and their balance, and serve them the model, before they can chat.
    await eventually(`the chat to offer ${this.model} to user ${id}`, async () => {
      const models = await user.call<string[]>('/api/chat/models');
      return models.body.data?.includes(this.model) && (await this.balance(user)) === quota
        ? true
        : undefined;
    });
    return user;
  }

  /** Sets the user's balance and waits until relay sees it. */
  async topUp(user: ChatUser, quota: number): Promise<void> {
    await this.setBalance(user.id, quota);
    await eventually(`relay to see the balance of user ${user.id}`, async () =>
      (await this.balance(user)) === quota ? true : undefined,
    );
  }

  /** The balance as the user sees it (quota units). */
  async balance(user: ChatUser): Promise<number> {
    const self = await user.call<{ quota: number }>('/api/user/self');
    return self.body.data!.quota;
  }

  private setBalance(userId: number, quota: number): Promise<void> {
    return setBalanceThroughBilling({
      billingUrl: this.billingUrl,
      secret: this.secret,
      userId,
      quota,
      reason: 'chat test',
    });
  }
}
