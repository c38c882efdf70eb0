import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The session check spans two services: like the launcher, these tests compose them in one process.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startGateway } from '@tollgate/gateway';
import { SESSION_LOOKUP, TOPICS } from '@tollgate/contracts';

type TopicDefinition = (typeof TOPICS)[keyof typeof TOPICS];
import type { TestDatabase } from '@tollgate/persistence';
import type { Env, RunningService } from '@tollgate/runtime';
import {
  eventually,
  freePort,
  openInfrastructure,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type InfrastructureKind,
  type QueryRows,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { SignJWT } from 'jose';
import { startAuth } from '../../src';
import { call, cookieHeader, type Answer, type CallOptions } from './auth-client';
import { codeIn, outboxMailsTo } from './mail-reader';

export const PASSWORD = 'correct-horse-9';
export const RU = { 'accept-language': 'ru-RU,ru;q=0.9' };
export const EN = { 'accept-language': 'en-US,en;q=0.9' };

export interface SignedInUser {
  id: number;
  username: string;
  email: string;
  session: string;
  /** Calls the gateway as this user, with the session cookie and New-Api-User. */
  call(path: string, options?: CallOptions): Promise<Answer>;
}

export interface AccountsHarnessOptions {
  /** Extra auth settings (e.g. BILLING_URL, OAuth providers), made once the infrastructure is open. */
  authEnv?: (infra: TestInfrastructureWithDatabase) => Promise<Env>;
  /** Topics to record from the moment the harness starts. */
  record?: TopicDefinition[];
  /** Where the gateway sends /api routes of other services (a stand-in). */
  othersUrl?: string;
  /**
   * The URL auth reaches its new database by, in place of the database's own: e.g. a TCP proxy's,
   * so that a spec can take the database away from the running service.
   */
  databaseUrl?: (database: TestDatabase) => Promise<string>;
}

/**
 * Auth behind the gateway on one infrastructure, with its mail in an outbox directory and
 * helpers for the people in a scenario. Each test file gets its own database.
 */
export class AccountsHarness {
  readonly secret = randomBytes(32).toString('hex');
  readonly rootName = `root${randomBytes(3).toString('hex')}`;
  readonly rootPassword = `root-pw-${randomBytes(6).toString('hex')}`;
  readonly recorders = new Map<string, TopicRecorder>();
  infra!: TestInfrastructureWithDatabase;
  auth!: RunningService;
  gateway!: RunningService;
  outboxDir!: string;
  private database!: TestDatabase;
  private databaseUrl!: string;
  private authPort!: number;
  private ipCounter = 0;
  private extraEnv: Env = {};

  constructor(
    private readonly kind: InfrastructureKind,
    private readonly name: string,
    private readonly options: AccountsHarnessOptions = {},
  ) {}

  async start(): Promise<void> {
    this.outboxDir = await mkdtemp(join(tmpdir(), 'tollgate-auth-outbox-'));
    this.infra = await openInfrastructure(this.kind, this.name);
    const topics = [TOPICS.identityUser, TOPICS.identityToken, TOPICS.billingBalance, TOPICS.usageRecorded];
    // A recorded topic auth only writes (audit.recorded) must exist before its recorder subscribes.
    await this.infra.runtime.bus.ensureTopics([...new Set([...topics, ...(this.options.record ?? [])])]);
    for (const topic of this.options.record ?? []) {
      this.recorders.set(
        topic.name,
        await TopicRecorder.start(
          this.infra.runtime.bus,
          topic.name,
          `${this.name}.${topic.name}.${this.infra.runId}`,
        ),
      );
    }
    this.extraEnv = (await this.options.authEnv?.(this.infra)) ?? {};
    this.database = await this.infra.createDatabase();
    this.databaseUrl = (await this.options.databaseUrl?.(this.database)) ?? this.database.url;
    this.authPort = await freePort();
    await this.startAuth();
    const others = this.options.othersUrl ?? this.auth.url;
    this.gateway = await startGateway({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      TOLLGATE_INTERNAL_TOKEN_SECRET: this.secret,
      AUTH_URL: this.auth.url,
      BILLING_URL: others,
      RELAY_URL: others,
      CHAT_URL: others,
      ADMIN_URL: others,
      GATEWAY_SESSION_CACHE_MS: '0',
    });
  }

  async stop(): Promise<void> {
    await this.gateway?.close();
    await this.auth?.close();
    for (const recorder of this.recorders.values()) await recorder.stop();
    await this.infra?.close();
    if (this.outboxDir) await rm(this.outboxDir, { recursive: true, force: true });
  }

  recorder(topic: TopicDefinition): TopicRecorder {
    const recorder = this.recorders.get(topic.name);
    if (!recorder) throw new Error(`the harness does not record ${topic.name}`);
    return recorder;
  }

  /**
   * Embedded PGlite serves one connection, which auth holds while it runs: the test reads and
   * changes the database with auth stopped, then starts it again on the same port.
   */
  async withAuthStopped<T>(work: (query: QueryRows) => Promise<T>): Promise<T> {
    await this.auth.close();
    try {
      return await withDatabase(this.database, work);
    } finally {
      await this.startAuth();
    }
  }

  /** A client address of its own per call, so one scenario's rate limits never touch another's. */
  ownAddress(): Record<string, string> {
    return { 'x-forwarded-for': `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${++this.ipCounter % 250}` };
  }

  newName(): string {
    return `u${randomBytes(5).toString('hex')}`;
  }

  /** Calls through the gateway without a session. */
  anonymous(path: string, options: CallOptions = {}): Promise<Answer> {
    return call(this.gateway.url, path, {
      ...options,
      headers: { ...this.ownAddress(), ...options.headers },
    });
  }

  /** A newly registered user, signed in through the gateway. */
  async signedInUser(extra: Record<string, unknown> = {}): Promise<SignedInUser> {
    const username = this.newName();
    const email = `${username}@example.com`;
    const registered = await this.anonymous('/api/user/register', {
      body: {
        username,
        email,
        password: PASSWORD,
        agree_to_terms: true,
        agree_to_data_processing: true,
        ...extra,
      },
    });
    if (registered.status !== 200) throw new Error(`registration answered ${registered.status}`);
    return this.asUser(registered.body.data!['id'] as number, username, email, registered.session!);
  }

  /** Signs in through the gateway. */
  async signIn(username: string, password: string): Promise<SignedInUser> {
    const answer = await this.anonymous('/api/user/login', { body: { username, password } });
    if (answer.status !== 200) throw new Error(`login answered ${answer.status}: ${answer.body.message}`);
    const data = answer.body.data!;
    return this.asUser(data['id'] as number, username, `${username}@example.com`, answer.session!);
  }

  asUser(id: number, username: string, email: string, session: string): SignedInUser {
    return {
      id,
      username,
      email,
      session,
      call: (path, options = {}) =>
        call(this.gateway.url, path, {
          ...options,
          headers: { ...cookieHeader(session), 'new-api-user': String(id), ...options.headers },
        }),
    };
  }

  /** Auth's answer to the gateway's look-up (a session or an access token). */
  async lookup(body: unknown): Promise<Answer> {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(SESSION_LOOKUP.issuer)
      .setAudience(SESSION_LOOKUP.audience)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(Buffer.from(this.secret, 'utf8'));
    return call(this.auth.url, SESSION_LOOKUP.path, { body, headers: { [SESSION_LOOKUP.header]: token } });
  }

  /** The newest code mailed to `email` after `before` mails, read from the outbox directory. */
  async mailedCode(email: string, before: number): Promise<string> {
    const mails = await eventually('the mail with a code', async () => {
      const all = await outboxMailsTo(this.outboxDir, email);
      return all.length > before ? all : undefined;
    });
    return codeIn(mails[mails.length - 1]!);
  }

  async mailCount(email: string): Promise<number> {
    return (await outboxMailsTo(this.outboxDir, email)).length;
  }

  private async startAuth(): Promise<void> {
    this.auth = await startAuth(
      {
        HOST: '127.0.0.1',
        PORT: String(this.authPort),
        LOG_LEVEL: 'error',
        DATABASE_URL: this.databaseUrl,
        TOLLGATE_INTERNAL_TOKEN_SECRET: this.secret,
        TOLLGATE_ENCRYPTION_KEY: this.encryptionKey,
        TOLLGATE_ROOT_USERNAME: this.rootName,
        TOLLGATE_ROOT_PASSWORD: this.rootPassword,
        TOLLGATE_EMAIL_VERIFICATION: 'false',
        MAIL_OUTBOX_DIR: this.outboxDir,
        AUTH_VERIFICATION_LIMIT_PER_IP: '100',
        ...this.extraEnv,
      },
      this.infra.runtime,
    );
    await waitUntilReady(this.auth.url);
  }

  private readonly encryptionKey = randomBytes(32).toString('base64');
}
