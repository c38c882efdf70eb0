import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The fuzzer calls the public surface of the whole platform: like the launcher, it composes the services in one process.
import { startAdmin } from '@tollgate/admin';
import { startAuth } from '@tollgate/auth';
import { startBilling } from '@tollgate/billing';
import { startChat } from '@tollgate/chat';
import { startGateway } from '@tollgate/gateway';
import { startRelay } from '@tollgate/relay';
import { SESSION_COOKIE_NAME, TOPICS } from '@tollgate/contracts';
import type { Env, RunningService } from '@tollgate/runtime';
import {
  eventually,
  freePort,
  openInfrastructure,
  publishFakeUpstreamCatalogue,
  setBalanceThroughBilling,
  startFakeUpstream,
  TEST_OPERATOR_ENV,
  waitUntilReady,
  type FakeUpstream,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import type { TestDatabase } from '@tollgate/persistence';
import { Client } from 'pg';

/** Who a fuzz case calls as; refreshed when a case signs the seeded identities out or changes them. */
export interface Identities {
  rootCookie: string;
  rootId: number;
  userCookie: string;
  userId: number;
  apiKey: string;
}

/** Rows per table, per service database. */
export type RowCounts = Record<string, number>;

/** How long row counts must stay the same after an accepted call: longer than the consumers' 250 ms gathering. */
const SETTLED_STILL_MS = 600;
/**
 * The same after a call that billing has settled usage for: longer than auth's and admin's usage
 * consumers gather (up to a second), so that their batch still gathering is not taken for stillness
 * and counted against the next, refused, case. Billing's own 250 ms window puts its row first.
 */
const SETTLED_STILL_AFTER_USAGE_MS = 1_200;
const SETTLED_READ_EVERY_MS = 100;
const USAGE_ROWS = 'billing.usage_logs';

/** Small limits, so that an oversized body costs a fuzz case little. */
export const API_BODY_LIMIT_BYTES = 64 * 1024;
export const V1_BODY_LIMIT_BYTES = 256 * 1024;

const PASSWORD = 'fuzz-password-9';

/**
 * Gateway, auth, billing, chat, admin and relay on real PostgreSQL, Redis and Kafka (each service its
 * own database, as deployed), the fake upstream as the only channel, a root and a user with a key.
 * Real PostgreSQL rather than PGlite: the databases are read while the services run.
 */
export class FuzzPlatform {
  readonly model = `fuzz-gpt-${randomBytes(3).toString('hex')}`;
  gatewayUrl = '';
  identities!: Identities;
  private readonly secret = randomBytes(32).toString('hex');
  private readonly encryptionKey = randomBytes(32).toString('base64');
  private readonly rootName = `root${randomBytes(3).toString('hex')}`;
  private readonly rootPassword = randomBytes(12).toString('hex');
  private readonly mailDir = mkdtempSync(join(tmpdir(), 'tollgate-fuzz-mail-'));
  /** Relay's usage spool: a directory of the run's own, never the default under the repository. */
  private readonly spoolDir = mkdtempSync(join(tmpdir(), 'relay-spool-'));
  private readonly services: RunningService[] = [];
  private readonly databases: { service: string; db: TestDatabase; client: Client; countRows?: string }[] =
    [];
  private infra!: TestInfrastructureWithDatabase;
  private upstream!: FakeUpstream;
  private billingUrl = '';
  private users = 0;

  async start(): Promise<void> {
    this.infra = await openInfrastructure('real', 'fuzz');
    await this.infra.runtime.bus.ensureTopics(Object.values(TOPICS));
    this.upstream = await startFakeUpstream({});
    const names = ['auth', 'billing', 'relay', 'chat', 'admin'] as const;
    const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()])));
    const url = (service: (typeof names)[number]) => `http://127.0.0.1:${ports[service]}`;
    const common: Env = {
      ...TEST_OPERATOR_ENV,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      TOLLGATE_INTERNAL_TOKEN_SECRET: this.secret,
      TOLLGATE_ENCRYPTION_KEY: this.encryptionKey,
      AUTH_URL: url('auth'),
      BILLING_URL: url('billing'),
      RELAY_URL: url('relay'),
      CHAT_URL: url('chat'),
      ADMIN_URL: url('admin'),
      MAIL_OUTBOX_DIR: this.mailDir,
      CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
      TOLLGATE_ROOT_USERNAME: this.rootName,
      TOLLGATE_ROOT_PASSWORD: this.rootPassword,
      TOLLGATE_EMAIL_VERIFICATION: 'false',
    };
    const withDatabase = async (service: string): Promise<Env> => {
      const db = await this.infra.createDatabase();
      const client = new Client({ connectionString: db.url });
      await client.connect();
      this.databases.push({ service, db, client });
      return { DATABASE_URL: db.url };
    };
    const start = async (run: () => Promise<RunningService>): Promise<RunningService> => {
      const service = await run();
      this.services.push(service);
      await waitUntilReady(service.url, 60_000);
      return service;
    };
    const runtime = this.infra.runtime;
    const envOf = async (service: (typeof names)[number], database: boolean): Promise<Env> => ({
      ...common,
      PORT: String(ports[service]),
      ...(database ? await withDatabase(service) : {}),
    });
    await start(async () => startAuth(await envOf('auth', true), runtime));
    this.billingUrl = (await start(async () => startBilling(await envOf('billing', true), runtime))).url;
    await start(async () => startAdmin(await envOf('admin', true), runtime));
    await start(async () =>
      startRelay({ ...(await envOf('relay', false)), RELAY_USAGE_SPOOL_DIR: this.spoolDir }, runtime),
    );
    await start(async () => startChat(await envOf('chat', true), runtime));
    const gateway = await start(() =>
      startGateway({
        ...common,
        PORT: '0',
        GATEWAY_API_BODY_LIMIT_BYTES: String(API_BODY_LIMIT_BYTES),
        GATEWAY_BODY_LIMIT_BYTES: String(V1_BODY_LIMIT_BYTES),
        GATEWAY_UPLOAD_BODY_LIMIT_BYTES: String(V1_BODY_LIMIT_BYTES),
      }),
    );
    this.gatewayUrl = gateway.url;
    await publishFakeUpstreamCatalogue(this.infra.runtime.bus, {
      encryptionKey: this.encryptionKey,
      upstreamUrl: this.upstream.url,
      model: this.model,
    });
    await this.refreshIdentities();
  }

  async stop(): Promise<void> {
    for (const service of this.services.reverse()) await service.close().catch(() => undefined);
    for (const { client } of this.databases) await client.end().catch(() => undefined);
    await this.upstream?.close();
    await this.infra?.close();
    rmSync(this.mailDir, { recursive: true, force: true });
    rmSync(this.spoolDir, { recursive: true, force: true });
  }

  /** Signs root in again and makes a new user with a funded key that relay accepts. */
  async refreshIdentities(): Promise<void> {
    const root = await this.signIn('/api/user/login', {
      username: this.rootName,
      password: this.rootPassword,
    });
    const username = `fz${this.infra.runId.slice(-6)}u${++this.users}`.slice(0, 20);
    const user = await this.signIn('/api/user/register', {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      agree_to_terms: true,
      agree_to_data_processing: true,
    });
    await this.setBalance(user.id, 50_000_000);
    const userHeaders = { cookie: `${SESSION_COOKIE_NAME}=${user.cookie}`, 'new-api-user': String(user.id) };
    const created = await this.json<{ id: number }>('/api/token', userHeaders, 'POST', {
      name: 'fuzz key',
      unlimited_quota: true,
    });
    const key = await this.json<{ key: string }>(`/api/token/${created.id}/key`, userHeaders, 'POST');
    const apiKey = key.key.startsWith('sk-') ? key.key : `sk-${key.key}`;
    this.identities = {
      rootCookie: root.cookie,
      rootId: root.id,
      userCookie: user.cookie,
      userId: user.id,
      apiKey,
    };
    await eventually(
      'relay to accept the fuzz user key',
      async () => {
        const res = await fetch(`${this.gatewayUrl}/v1/models`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        const body = (await res.json()) as { data?: { id: string }[] };
        if (res.status === 200 && body.data?.some((m) => m.id === this.model)) return true;
        throw new Error(`/v1/models answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      },
      60_000,
    );
  }

  /**
   * Waits until no table's row count has changed for `SETTLED_STILL_MS`, or for
   * `SETTLED_STILL_AFTER_USAGE_MS` once billing has settled usage since `before` (the counts taken
   * before the call): what an accepted call set off (a usage event consumed by billing, auth and admin,
   * gathering for up to 250 ms, 1 s and 1 s; an outbox relayed) is done before the next case is measured.
   */
  async settled(before: RowCounts): Promise<void> {
    let counts = await this.rowCounts();
    let last = JSON.stringify(counts);
    const readsFor = (ms: number) => Math.ceil(ms / SETTLED_READ_EVERY_MS);
    // Bounded: on a loaded machine a busy platform is never still for long, and a case must not wait for it.
    const maxReads = 5 * readsFor(SETTLED_STILL_AFTER_USAGE_MS);
    for (let still = 0, reads = 0; reads < maxReads; reads++) {
      const usage = (counts[USAGE_ROWS] ?? 0) > (before[USAGE_ROWS] ?? 0);
      if (still >= readsFor(usage ? SETTLED_STILL_AFTER_USAGE_MS : SETTLED_STILL_MS)) return;
      await new Promise((resolve) => setTimeout(resolve, SETTLED_READ_EVERY_MS));
      counts = await this.rowCounts();
      const now = JSON.stringify(counts);
      still = now === last ? still + 1 : 0;
      last = now;
    }
  }

  /**
   * Rows per `service.table`, on every service database, keys in name order: `settled` compares
   * two counts as JSON, and the databases answer in any order.
   */
  async rowCounts(): Promise<RowCounts> {
    const counts: [string, number][] = [];
    await Promise.all(
      this.databases.map(async (database) => {
        database.countRows ??= await countingQuery(database.client);
        for (const row of (await database.client.query<{ name: string; rows: number }>(database.countRows))
          .rows) {
          counts.push([`${database.service}.${row.name}`, row.rows]);
        }
      }),
    );
    return Object.fromEntries(counts.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private async signIn(path: string, body: object): Promise<{ cookie: string; id: number }> {
    const res = await fetch(`${this.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { success: boolean; message: string; data?: { id: number } };
    if (!answer.success) throw new Error(`${path} answered ${res.status}: ${answer.message}`);
    const cookie = res.headers
      .getSetCookie()
      .map((value) => new RegExp(`^${SESSION_COOKIE_NAME}=([^;]*)`).exec(value)?.[1])
      .find((value) => value !== undefined);
    if (cookie === undefined) throw new Error(`${path} set no session cookie`);
    return { cookie, id: answer.data!.id };
  }

  private async json<T>(
    path: string,
    headers: Record<string, string>,
    method: string,
    body?: object,
  ): Promise<T> {
    const res = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await res.json()) as { success: boolean; message: string; data?: T };
    if (!answer.success) throw new Error(`${method} ${path} answered ${res.status}: ${answer.message}`);
    return answer.data as T;
  }

  private setBalance(userId: number, quota: number): Promise<void> {
    return setBalanceThroughBilling({
      billingUrl: this.billingUrl,
      secret: this.secret,
      userId,
      quota,
      reason: 'fuzz',
    });
  }
}

/** One query counting the rows of every table of the service's schema (created by its migrations at start). */
async function countingQuery(client: Client): Promise<string> {
  const tables = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  return tables.rows
    .map(({ name }) => `SELECT '${name}' AS name, count(*)::int AS rows FROM "${name}"`)
    .join(' UNION ALL ');
}
