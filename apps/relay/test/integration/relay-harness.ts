import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, TOPICS, type Envelope, type UsageRecorded } from '@tollgate/contracts';
import type { EventBus } from '@tollgate/events';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env, RunningService, ServiceRuntime } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  openInfrastructure,
  startFakeUpstream,
  TopicRecorder,
  waitUntilReady,
  type FakeUpstream,
  type InfrastructureKind,
  type TestInfrastructure,
} from '@tollgate/testing';
import { startRelay } from '../../src';
import { RelayWorld, type TestKey } from '../support/relay-world';

/** A running relay and the calls specs make of it. */
export class Relay {
  constructor(
    private readonly service: RunningService,
    private readonly secret: string,
    private readonly closed: (relay: Relay) => void,
  ) {}

  get url(): string {
    return this.service.url;
  }

  async close(): Promise<void> {
    this.closed(this);
    await this.service.close();
  }

  /** A JSON body POSTed with the headers given (a key, a service token, none). */
  post(path: string, headers: Record<string, string>, body: unknown): Promise<Response> {
    return fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  /** A root's identity header, as the gateway sends it. */
  async asRoot(): Promise<Record<string, string>> {
    return {
      [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
        { userId: 1, role: Role.Root, via: 'session' },
        this.secret,
      ),
    };
  }

  /** Whether relay's read model `table` holds `key` yet. */
  async holds(table: string, key: string | number): Promise<boolean> {
    const entry = await getJson<Envelope<{ present: boolean }>>(
      `${this.url}/internal/read-models/${table}/${encodeURIComponent(String(key))}`,
      await this.asRoot(),
    );
    return entry.body.data?.present === true;
  }

  /** The key is accepted (GET /v1/models) and its owner's balance is in the balances table. */
  async knows(key: TestKey): Promise<boolean> {
    const models = await fetch(`${this.url}/v1/models`, { headers: bearer(key) });
    return models.status === 200 && (await this.holds('balances', key.userId));
  }
}

/** The Authorization header of an OpenAI client with `key`. */
export function bearer(key: TestKey): Record<string, string> {
  return { authorization: `Bearer ${key.apiKey}` };
}

export interface RelayHarnessOptions {
  /** Records usage.recorded from the moment the harness opens (`usageOf`, `usageEvents`). */
  recordUsage?: boolean;
  /** Settings every relay of this harness gets, over the harness's own. */
  env?: Env;
}

export interface RelayStartOptions {
  /** Settings for this start, over the harness's. */
  env?: Env;
  /** In place of the infrastructure's runtime, e.g. a bus with a fault. */
  runtime?: ServiceRuntime;
  /** Wait until relay is ready (its read models caught up); true unless told. */
  ready?: boolean;
}

/**
 * Relay on one infrastructure (embedded or real, no database): the entities it reads published on
 * their topics (`world`), fake upstreams, usage.recorded recorded, and relays started with the
 * harness's secret and a usage spool directory of the spec's own, removed at close. Each spec file
 * opens one harness.
 */
export class RelayHarness {
  readonly secret = randomBytes(32).toString('hex');
  infra!: TestInfrastructure;
  world!: RelayWorld;
  /** RELAY_USAGE_SPOOL_DIR of every relay of this harness: never the default under the repository. */
  spoolDir!: string;
  private usage?: TopicRecorder;
  private readonly running = new Set<Relay>();
  private readonly upstreams: FakeUpstream[] = [];

  constructor(
    private readonly kind: InfrastructureKind,
    private readonly name: string,
    private readonly options: RelayHarnessOptions = {},
  ) {}

  get bus(): EventBus {
    return this.infra.runtime.bus;
  }

  async open(): Promise<void> {
    // Short: lock sockets live in the spool directory, whose path relay caps at 80 bytes.
    this.spoolDir = await mkdtemp(join(tmpdir(), 'relay-spool-'));
    this.infra = await openInfrastructure(this.kind, this.name, { database: false });
    this.world = new RelayWorld(this.bus, this.infra.runId);
    if (this.options.recordUsage) {
      await this.bus.ensureTopics([TOPICS.usageRecorded]);
      this.usage = await TopicRecorder.start(
        this.bus,
        TOPICS.usageRecorded.name,
        `${this.name}.usage.${this.infra.runId}`,
      );
    }
  }

  /** Closes the relays still running, the upstreams, the recorder, the infrastructure, the spool. */
  async close(): Promise<void> {
    for (const relay of [...this.running]) await relay.close();
    for (const upstream of this.upstreams) await upstream.close();
    await this.usage?.stop();
    await this.infra?.close();
    if (this.spoolDir) await rm(this.spoolDir, { recursive: true, force: true });
  }

  /** A fake upstream, closed with the harness. */
  async upstream(options: Parameters<typeof startFakeUpstream>[0] = {}): Promise<FakeUpstream> {
    const upstream = await startFakeUpstream(options);
    this.upstreams.push(upstream);
    return upstream;
  }

  /** Relay, ready to answer unless told otherwise. */
  async start({ env, runtime, ready = true }: RelayStartOptions = {}): Promise<Relay> {
    const service = await startRelay(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        TOLLGATE_INTERNAL_TOKEN_SECRET: this.secret,
        TOLLGATE_ENCRYPTION_KEY: this.world.encryptionKey,
        RELAY_USAGE_SPOOL_DIR: this.spoolDir,
        ...this.options.env,
        ...env,
      },
      runtime ?? this.infra.runtime,
    );
    const relay = new Relay(service, this.secret, (closed) => this.running.delete(closed));
    this.running.add(relay);
    if (ready) {
      try {
        await waitUntilReady(relay.url);
      } catch (error) {
        await relay.close();
        throw error;
      }
    }
    return relay;
  }

  /** Waits until every relay given knows the key and its owner's balance (they arrive on separate topics). */
  keyReady(key: TestKey, ...relays: Relay[]): Promise<true> {
    return eventually(`key and balance of user ${key.userId} in relay`, async () =>
      (await Promise.all(relays.map((relay) => relay.knows(key)))).every(Boolean) ? true : undefined,
    );
  }

  /** A key with `balance` on its owner's account, known to every relay given. */
  async readyKey(
    relays: Relay[],
    balance = 50_000_000,
    token: Parameters<RelayWorld['key']>[1] = {},
    user: Parameters<RelayWorld['key']>[2] = {},
  ): Promise<TestKey> {
    const key = await this.world.key(balance, token, user);
    await this.keyReady(key, ...relays);
    return key;
  }

  /** A signed-in user with no key (the chat service's caller) and `balance`, known to `relay`. */
  async readyWebUser(relay: Relay, balance: number): Promise<number> {
    const userId = await this.world.webUser(balance);
    await eventually(`user ${userId} and balance in relay`, async () =>
      (await relay.holds('users', userId)) && (await relay.holds('balances', userId)) ? true : undefined,
    );
    return userId;
  }

  /** The usage.recorded events of the user so far, in arrival order (the harness must record usage). */
  usageOf(userId: number, match: (event: UsageRecorded) => boolean = () => true): UsageRecorded[] {
    if (!this.usage) throw new Error('the harness does not record usage.recorded');
    return this.usage.values<UsageRecorded>((event) => event.user_id === userId && match(event));
  }

  /** Waits for at least `count` usage.recorded events of the user that pass `match`; all of them. */
  usageEvents(
    userId: number,
    count = 1,
    match: (event: UsageRecorded) => boolean = () => true,
  ): Promise<UsageRecorded[]> {
    return eventually(`${count} usage.recorded event(s) of user ${userId}`, async () => {
      const events = this.usageOf(userId, match);
      return events.length >= count ? events : undefined;
    });
  }
}
