import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, TOPICS, type Envelope, type UsageRecorded } from '@tollgate/contracts';
import type { EventBus, OutgoingEvent } from '@tollgate/events';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  describeOnRealInfrastructure,
  openInfrastructure,
  startFakeUpstream,
  TopicRecorder,
  waitUntilReady,
  type FakeUpstream,
  type TestInfrastructure,
} from '@tollgate/testing';
import { startRelay } from '../../src';
import { RelayWorld, type TestKey } from '../support/relay-world';

jest.setTimeout(60_000);

/**
 * The real Kafka bus with the broker taken away for publishing: while `down`, every publish rejects
 * as kafkajs does when it cannot reach a broker. A TCP proxy cannot stand in front of Kafka (brokers
 * advertise their own address to clients), so the fault is injected here; everything else is real.
 */
class BrokerOutage implements EventBus {
  down = false;
  /** Publishes rejected while down. */
  refused = 0;

  constructor(private readonly bus: EventBus) {}

  ensureTopics: EventBus['ensureTopics'] = (topics) => this.bus.ensureTopics(topics);
  subscribe: EventBus['subscribe'] = (options) => this.bus.subscribe(options);
  table: EventBus['table'] = (topic, decode) => this.bus.table(topic, decode);
  close: EventBus['close'] = () => this.bus.close();

  async publish(events: OutgoingEvent[]): Promise<void> {
    if (this.down) {
      this.refused += 1;
      throw Object.assign(new Error('Connection error: connect ECONNREFUSED (injected broker outage)'), {
        name: 'KafkaJSConnectionError',
      });
    }
    await this.bus.publish(events);
  }
}

// The fault is the broker going away under a running relay: the in-process bus of embedded mode
// lives in the service's own process and cannot go away alone.
describeOnRealInfrastructure('relay usage across a broker outage (real infrastructure)', () => {
  const secret = randomBytes(32).toString('hex');
  let infra: TestInfrastructure;
  let outage: BrokerOutage;
  let world: RelayWorld;
  let upstream: FakeUpstream;
  let relay: RunningService;
  let usage: TopicRecorder;
  let key: TestKey;
  let model: string;
  let spoolDir: string;
  let relayEnv: Record<string, string>;

  /** One chat completion through relay; its answer's id, which its usage event carries. */
  const served = async (): Promise<string> => {
    const res = await fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.apiKey}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 16 }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const eventsOfKey = () => usage.values<UsageRecorded>((event) => event.user_id === key.userId);

  beforeAll(async () => {
    infra = await openInfrastructure('real', 'relay-usage-outage', { database: false });
    outage = new BrokerOutage(infra.runtime.bus);
    world = new RelayWorld(infra.runtime.bus, infra.runId);
    upstream = await startFakeUpstream({ completionTokens: 8, chunks: 4 });
    model = world.model('gpt');
    spoolDir = await mkdtemp(join(tmpdir(), 'relay-usage-spool-'));
    relayEnv = {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'fatal',
      TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
      TOLLGATE_ENCRYPTION_KEY: world.encryptionKey,
      RELAY_QUOTA_HOLD_MS: '60000',
      RELAY_USAGE_SPOOL_DIR: spoolDir,
    };
    relay = await startRelay(relayEnv, { ...infra.runtime, bus: outage });
    usage = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.usageRecorded.name,
      `relay-usage-outage.usage.${infra.runId}`,
    );
    await world.price(model);
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [model],
      model_mapping: { [model]: 'gpt-4o-mini' },
    });
    key = await world.key(50_000_000);
    await waitUntilReady(relay.url);
    await eventually(`key, balance and model of user ${key.userId} in relay`, async () => {
      const models = await fetch(`${relay.url}/v1/models`, {
        headers: { authorization: `Bearer ${key.apiKey}` },
      });
      if (models.status !== 200) return undefined;
      const body = (await models.json()) as { data?: { id: string }[] };
      if (!body.data?.some((entry) => entry.id === model)) return undefined;
      const root = await signInternalToken({ userId: 1, role: Role.Root, via: 'session' }, secret);
      const balance = await getJson<Envelope<{ present: boolean }>>(
        `${relay.url}/internal/read-models/balances/${key.userId}`,
        { [INTERNAL_IDENTITY_HEADER]: root },
      );
      return balance.body.data?.present === true ? true : undefined;
    });
  });

  afterAll(async () => {
    outage.down = false;
    await usage?.stop();
    await relay?.close();
    await upstream?.close();
    await infra?.close();
    if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
  });

  it('publishes the usage of calls served while the broker was away once it is back, each exactly once', async () => {
    const before = await served();
    await eventually('the usage event of the call before the outage', async () =>
      eventsOfKey().length === 1 ? true : undefined,
    );

    outage.down = true;
    const during = [await served(), await served(), await served()];
    // Relay tried again while the broker was still away (the first attempt and at least one retry).
    await eventually('a second refused publish', async () => (outage.refused >= 2 ? true : undefined));
    expect(eventsOfKey()).toHaveLength(1);
    outage.down = false;

    const events = await eventually('the usage events of the calls served during the outage', async () =>
      eventsOfKey().length >= 4 ? eventsOfKey() : undefined,
    );
    expect(events.map((event) => event.response_id).sort()).toEqual([before, ...during].sort());
    expect(new Set(events.map((event) => event.event_id)).size).toBe(4);
  });

  it('publishes, from the next relay started with the same spool directory, the usage of calls a relay stopped during the outage had held, each exactly once', async () => {
    outage.down = true;
    const refused = outage.refused;
    const during = [await served(), await served(), await served()];
    await eventually('a refused publish of the calls during the outage', async () =>
      outage.refused > refused ? true : undefined,
    );
    // Stopped while the broker is still away: its sink gives up at its close timeout with the
    // events unpublished, as a relay killed during the outage would leave them.
    await relay.close();
    const ofTheseCalls = () =>
      eventsOfKey().filter((event) => event.response_id !== undefined && during.includes(event.response_id));
    expect(ofTheseCalls()).toEqual([]);

    // The broker is back for the relay started next; the stopped one's bus stays down.
    relay = await startRelay(relayEnv, infra.runtime);
    const events = await eventually('the usage events of the calls the stopped relay held', async () =>
      ofTheseCalls().length >= during.length ? ofTheseCalls() : undefined,
    );
    await eventually('the spool emptied once the broker took its events', async () =>
      (await readdir(spoolDir)).some((name) => name.endsWith('.jsonl')) ? undefined : true,
    );
    expect(ofTheseCalls()).toHaveLength(during.length);
    expect(events.map((event) => event.response_id).sort()).toEqual([...during].sort());
    expect(new Set(events.map((event) => event.event_id)).size).toBe(during.length);
  });
});
