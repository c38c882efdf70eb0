import { randomBytes } from 'node:crypto';
import { TOPICS, type UsageRecorded } from '@tollgate/contracts';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER } from '@tollgate/platform';
import { describeOnRealInfrastructure, eventually, TopicRecorder } from '@tollgate/testing';
import type { TestKey } from '../support/relay-world';
import { aChannelOn, aChatRequest } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(60_000);

// Relay gathers usage.recorded for a few milliseconds and publishes the window together; each event
// must still leave with its own call's ids (request and correlation), carried in the call's context
// without async-local storage, to every consumer.
describeOnRealInfrastructure('relay usage publishing (real infrastructure)', () => {
  const harness = new RelayHarness('real', 'relay-usage-publishing', { env: { LOG_LEVEL: 'fatal' } });
  let recorder: TopicRecorder;
  let relay: Relay;
  let key: TestKey;
  let model: string;

  beforeAll(async () => {
    await harness.open();
    const { world } = harness;
    await harness.bus.ensureTopics([TOPICS.usageRecorded]);
    recorder = await TopicRecorder.start(
      harness.bus,
      TOPICS.usageRecorded.name,
      `relay-usage-publishing.${harness.infra.runId}`,
    );
    const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
    model = world.model('gpt');
    relay = await harness.start();
    await world.price(model);
    await world.channel(aChannelOn(upstream, [model], { model_mapping: { [model]: 'gpt-4o-mini' } }));
    key = await harness.readyKey([relay]);
  });

  afterAll(async () => {
    await recorder?.stop();
    await harness.close();
  });

  it("publishes each call's usage with that call's request and correlation ids in its headers, calls ending together included", async () => {
    const requestIds = Array.from(
      { length: 6 },
      (_, i) => `usage-pub-${i}-${randomBytes(4).toString('hex')}`,
    );
    const answers = await Promise.all(
      requestIds.map((id) =>
        relay.post(
          '/v1/chat/completions',
          { ...bearer(key), [REQUEST_ID_HEADER]: id, [CORRELATION_ID_HEADER]: `flow-${id}` },
          aChatRequest(model),
        ),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(requestIds.map(() => 200));

    const records = await eventually('the usage events of the six calls', async () => {
      const ofKey = recorder.records.filter(
        (record) => (record.value as UsageRecorded | null)?.user_id === key.userId,
      );
      return ofKey.length >= requestIds.length ? ofKey : undefined;
    });
    expect(records.map((record) => (record.value as UsageRecorded).request_id).sort()).toEqual(
      [...requestIds].sort(),
    );
    for (const record of records) {
      const requestId = (record.value as UsageRecorded).request_id;
      expect(record.headers[REQUEST_ID_HEADER]).toBe(requestId);
      expect(record.headers[CORRELATION_ID_HEADER]).toBe(`flow-${requestId}`);
    }
  });
});
