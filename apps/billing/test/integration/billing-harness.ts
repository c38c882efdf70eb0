import { randomBytes } from 'node:crypto';
import {
  Role,
  TOPICS,
  type BillingBalance,
  type IdentityUser,
  type ServiceCall,
  type UsageRecorded,
} from '@tollgate/contracts';
import type { EventBus, TopicSpec } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import {
  INTERNAL_IDENTITY_HEADER,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
  signInternalToken,
} from '@tollgate/platform';
import type { Env, RunningService, ServiceRuntime } from '@tollgate/runtime';
import {
  databaseBehindProxy,
  eventually,
  openInfrastructure,
  publishUsage,
  randomUserId,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TcpProxy,
  type FakeCbr,
  type FakeCrypto,
  type FakeYookassa,
  type InfrastructureKind,
  type JsonResponse,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';
import { aCatalogOption } from './builders';

/** Billing's answer envelope; `data` as the spec reads it. */
export interface Envelope<D = Record<string, unknown>> {
  success: boolean;
  message: string;
  data?: D;
}

/** Status and parsed JSON body, nothing else: specs compare whole answers with toEqual. */
export type Answer<T = Envelope> = JsonResponse<T>;

/** Calls billing with one caller's headers (an identity, a service token, or none). */
export class Caller {
  constructor(
    private readonly baseUrl: string,
    private readonly headers: () => Promise<Record<string, string>>,
  ) {}

  get<T = Envelope>(path: string): Promise<Answer<T>> {
    return this.send<T>('GET', path);
  }

  post<T = Envelope>(path: string, body: unknown): Promise<Answer<T>> {
    return this.send<T>('POST', path, body);
  }

  put<T = Envelope>(path: string, body: unknown): Promise<Answer<T>> {
    return this.send<T>('PUT', path, body);
  }

  delete<T = Envelope>(path: string): Promise<Answer<T>> {
    return this.send<T>('DELETE', path);
  }

  /** JSON in (when there is a body) and out. */
  async send<T = Envelope>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const response = await this.fetch(path, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  /** The raw response, for what is not a JSON answer (CSV, headers). */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      ...init,
      headers: { ...(await this.headers()), ...(init.headers as Record<string, string> | undefined) },
    });
  }
}

/** A running billing and callers signed with the harness's secret. */
export class Billing {
  constructor(
    private readonly service: RunningService,
    private readonly secret: string,
    private readonly closed: (billing: Billing) => void,
  ) {}

  get url(): string {
    return this.service.url;
  }

  async close(): Promise<void> {
    this.closed(this);
    await this.service.close();
  }

  /** As the gateway calls for a signed-in person: the internal identity header. */
  as(userId: number, role: Role): Caller {
    return new Caller(this.url, async () => ({
      [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId, role, via: 'session' }, this.secret),
    }));
  }

  asUser(userId: number): Caller {
    return this.as(userId, Role.User);
  }

  asAdmin(userId: number = randomUserId()): Caller {
    return this.as(userId, Role.Admin);
  }

  asRoot(userId: number = randomUserId()): Caller {
    return this.as(userId, Role.Root);
  }

  /** As another service calls: a service token for `call`'s audience (or any audience named). */
  asService(call: ServiceCall | string): Caller {
    const signer = new ServiceTokenSigner(this.secret, typeof call === 'string' ? call : call.audience);
    return new Caller(this.url, async () => ({ [SERVICE_TOKEN_HEADER]: await signer.token() }));
  }

  /** Without any identity: public routes, providers' webhooks, refusals. */
  anonymous(): Caller {
    return new Caller(this.url, async () => ({}));
  }

  /** The ledger audit as an admin sees it: `data` lists the accounts that do not add up. */
  ledgerAudit(): Promise<Answer<Envelope<unknown[]>>> {
    return this.asAdmin().get('/api/log/ledger-audit');
  }
}

export interface BillingHarnessOptions {
  /** Topics to create when the harness opens (besides the recorded ones). */
  topics?: TopicSpec[];
  /** Topics recorded from the moment the harness opens. */
  record?: TopicSpec[];
  /** Settings every billing of this harness gets, read at each start (fakes start after construction). */
  env?: () => Env;
}

export interface StartOptions {
  /** The database to run on; a new one when absent. */
  database?: TestDatabase;
  /** Settings for this start, over the harness's. */
  env?: Env;
  /** In place of the infrastructure's runtime, e.g. a bus with a fault. */
  runtime?: ServiceRuntime;
}

/**
 * Billing on one infrastructure (embedded or real): its secret, the topics a spec records, and
 * billings started on databases of their own. Each spec file opens one harness.
 */
export class BillingHarness {
  readonly secret = randomBytes(32).toString('hex');
  infra!: TestInfrastructureWithDatabase;
  private readonly recorders = new Map<string, TopicRecorder>();
  private readonly running = new Set<Billing>();
  private readonly proxies = new Set<TcpProxy>();

  constructor(
    private readonly kind: InfrastructureKind,
    private readonly name: string,
    private readonly options: BillingHarnessOptions = {},
  ) {}

  get bus(): EventBus {
    return this.infra.runtime.bus;
  }

  async open(): Promise<void> {
    this.infra = await openInfrastructure(this.kind, this.name);
    const record = this.options.record ?? [];
    const topics = [...(this.options.topics ?? []), ...record];
    if (topics.length > 0) await this.bus.ensureTopics(topics);
    for (const topic of record) {
      this.recorders.set(
        topic.name,
        await TopicRecorder.start(this.bus, topic.name, `${this.name}.${topic.name}.${this.infra.runId}`),
      );
    }
  }

  /** Closes the billings still running, their proxies, then the recorders and the infrastructure. */
  async close(): Promise<void> {
    for (const billing of [...this.running]) await billing.close();
    for (const proxy of this.proxies) await proxy.close();
    for (const recorder of this.recorders.values()) await recorder.stop();
    await this.infra?.close();
  }

  recorder(topic: TopicSpec | string): TopicRecorder {
    const name = typeof topic === 'string' ? topic : topic.name;
    const recorder = this.recorders.get(name);
    if (!recorder) throw new Error(`the harness does not record ${name}`);
    return recorder;
  }

  createDatabase(): Promise<TestDatabase> {
    return this.infra.createDatabase();
  }

  /**
   * A new database with billing's migrations applied: billing started on it and stopped, so the
   * spec can write rows first (on PGlite the running service holds the one connection).
   */
  async migratedDatabase(): Promise<TestDatabase> {
    const database = await this.createDatabase();
    await this.run(database, async () => undefined);
    return database;
  }

  /** Billing, ready to answer. */
  async start({ database, env, runtime }: StartOptions = {}): Promise<Billing> {
    const own = database ?? (await this.createDatabase());
    const service = await startBilling(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        DATABASE_URL: own.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: this.secret,
        ...this.options.env?.(),
        ...env,
      },
      runtime ?? this.infra.runtime,
    );
    const billing = new Billing(service, this.secret, (closed) => this.running.delete(closed));
    this.running.add(billing);
    try {
      await waitUntilReady(billing.url);
    } catch (error) {
      await billing.close();
      throw error;
    }
    return billing;
  }

  /**
   * Billing on a new database that it reaches through a TCP proxy, so that a spec can take the
   * database away from the running service (real infrastructure: PGlite has no connection to cut).
   */
  async startBehindProxy(
    env: Env = {},
  ): Promise<{ billing: Billing; database: TestDatabase; proxy: TcpProxy }> {
    const { database, proxy, url } = await databaseBehindProxy(this.infra);
    this.proxies.add(proxy);
    const billing = await this.start({ database, env: { ...env, DATABASE_URL: url } });
    return { billing, database, proxy };
  }

  /** Runs billing on `database` while `whileRunning` acts, then closes it. */
  async run<T>(
    database: TestDatabase,
    whileRunning: (billing: Billing) => Promise<T>,
    options: Omit<StartOptions, 'database'> = {},
  ): Promise<T> {
    const billing = await this.start({ ...options, database });
    try {
      return await whileRunning(billing);
    } finally {
      await billing.close();
    }
  }

  /** usage.recorded, each event keyed by its user as relay publishes it. */
  publishUsage(events: readonly UsageRecorded[]): Promise<void> {
    return publishUsage(this.bus, events);
  }

  /** identity.user, each keyed by its id as auth publishes it. */
  publishUsers(users: readonly IdentityUser[]): Promise<void> {
    return this.bus.publish(
      users.map((value) => ({ topic: TOPICS.identityUser.name, key: String(value.id), value })),
    );
  }

  /** An operator's setting on catalog.option, as admin publishes it. */
  setOption(key: string, value: string): Promise<void> {
    return this.bus.publish([{ topic: TOPICS.catalogOption.name, key, value: aCatalogOption(key, value) }]);
  }

  /** The user's billing.balance values in arrival order (the harness must record billing.balance). */
  balancesOf(userId: number): BillingBalance[] {
    return this.recorder(TOPICS.billingBalance).values<BillingBalance>((value) => value.user_id === userId);
  }

  /** The first billing.balance of the user that shows `requests` settled requests. */
  balanceAfter(userId: number, requests: number): Promise<BillingBalance> {
    return eventually(`billing.balance of user ${userId} after ${requests} request(s)`, async () =>
      this.balancesOf(userId)
        .filter((balance) => balance.request_count >= requests)
        .at(0),
    );
  }
}

/** What billing settled for one user: the account's counters, its usage logs and what its usage entries charged. */
export interface Settled {
  quota: number;
  used_quota: number;
  request_count: number;
  usage_logs: number;
  /** Less the sum of the user's usage ledger entries (one per user per settled batch, not per event). */
  ledger_charged: number;
}

/** Read while billing is stopped on embedded infrastructure: PGlite serves one connection. */
export function settledState(database: TestDatabase, userId: number): Promise<Settled> {
  return withDatabase(database, async (query) => {
    const [account] = await query<Record<string, string>>(
      'select quota, used_quota, request_count from accounts where user_id = ?',
      [userId],
    );
    const [logs] = await query<{ n: string }>('select count(*) as n from usage_logs where user_id = ?', [
      userId,
    ]);
    const [entries] = await query<{ charged: string }>(
      `select coalesce(-sum(amount), 0) as charged from ledger_entries where user_id = ? and kind = 'usage'`,
      [userId],
    );
    return {
      quota: Number(account!['quota']),
      used_quota: Number(account!['used_quota']),
      request_count: Number(account!['request_count']),
      usage_logs: Number(logs!.n),
      ledger_charged: Number(entries!.charged),
    };
  });
}

/**
 * Users with usage-log rows but no account, or whose usage rows' quota is not what their usage ledger
 * entries charged: none, ever. The log rows have no foreign key (20270101-settlement-writes), and a
 * usage entry sums a batch's events of one user (keyed by the lowest of their ids), so this is what
 * stands in for both. Read while billing is stopped, as settledState.
 */
export function unbalancedUsage(
  database: TestDatabase,
): Promise<{ user_id: number; logged: string; charged: string | null }[]> {
  return withDatabase(database, (query) =>
    query<{ user_id: number; logged: string; charged: string | null }>(
      `select u.user_id, u.logged::text as logged, e.charged::text as charged
       from (select user_id, sum(quota) as logged from usage_logs group by user_id) u
       left join (select user_id, -sum(amount) as charged from ledger_entries where kind = 'usage'
                  group by user_id) e on e.user_id = u.user_id
       where not exists (select 1 from accounts a where a.user_id = u.user_id)
          or e.charged is distinct from u.logged`,
    ),
  );
}

/** Billing's settings for the fake payment providers and central bank a spec starts. */
export function providersEnv(fakes: { cbr?: FakeCbr; yookassa?: FakeYookassa; crypto?: FakeCrypto }): Env {
  const { cbr, yookassa, crypto } = fakes;
  return {
    ...(cbr && { CBR_DAILY_URL: cbr.dailyUrl }),
    ...(yookassa && {
      YOOKASSA_API_URL: yookassa.apiUrl,
      YOOKASSA_SHOP_ID: yookassa.shopId,
      YOOKASSA_SECRET_KEY: yookassa.secretKey,
    }),
    ...(crypto && {
      CRYPTO_API_URL: crypto.apiUrl,
      CRYPTO_MERCHANT_ID: crypto.merchantId,
      CRYPTO_API_KEY: crypto.apiKey,
    }),
  };
}
