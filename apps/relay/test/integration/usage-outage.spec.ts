import { readdir } from 'node:fs/promises';
import type { EventBus, OutgoingEvent } from '@tollgate/events';
import { eventually, describeOnRealInfrastructure } from '@tollgate/testing';
import type { TestKey } from '../support/relay-world';
import { aChannelOn, aChatRequest } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

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
  const harness = new RelayHarness('real', 'relay-usage-outage', {
    recordUsage: true,
    env: { LOG_LEVEL: 'fatal', RELAY_QUOTA_HOLD_MS: '60000' },
  });
  let outage: BrokerOutage;
  let relay: Relay;
  let key: TestKey;
  let model: string;

  /** One chat completion through relay; its answer's id, which its usage event carries. */
  const served = async (): Promise<string> => {
    const res = await relay.post('/v1/chat/completions', bearer(key), aChatRequest(model));
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };
  const eventsOfKey = () => harness.usageOf(key.userId);

  beforeAll(async () => {
    await harness.open();
    const { world } = harness;
    outage = new BrokerOutage(harness.bus);
    const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
    model = world.model('gpt');
    relay = await harness.start({ runtime: { ...harness.infra.runtime, bus: outage } });
    await world.price(model);
    await world.channel(aChannelOn(upstream, [model], { model_mapping: { [model]: 'gpt-4o-mini' } }));
    key = await harness.readyKey([relay]);
    await eventually(`relay to serve ${model}`, async () => {
      const models = await fetch(`${relay.url}/v1/models`, { headers: bearer(key) });
      const body = (await models.json()) as { data?: { id: string }[] };
      return body.data?.some((entry) => entry.id === model) ? true : undefined;
    });
  });

  afterAll(async () => {
    outage.down = false;
    await harness.close();
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
    relay = await harness.start();
    const events = await eventually('the usage events of the calls the stopped relay held', async () =>
      ofTheseCalls().length >= during.length ? ofTheseCalls() : undefined,
    );
    await eventually('the spool emptied once the broker took its events', async () =>
      (await readdir(harness.spoolDir)).some((name) => name.endsWith('.jsonl')) ? undefined : true,
    );
    expect(ofTheseCalls()).toHaveLength(during.length);
    expect(events.map((event) => event.response_id).sort()).toEqual([...during].sort());
    expect(new Set(events.map((event) => event.event_id)).size).toBe(during.length);
  });
});
