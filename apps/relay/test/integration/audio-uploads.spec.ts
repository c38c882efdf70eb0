import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chargeQuota, QUOTA_PER_USD, TOPICS, type UsageRecorded } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  silentWav,
  startFakeUpstream,
  TopicRecorder,
  waitUntilReady,
  type FakeUpstream,
  type TestInfrastructure,
} from '@tollgate/testing';
import OpenAI, { toFile } from 'openai';
import { startRelay } from '../../src';
import { RelayWorld, type TestKey } from '../support/relay-world';

jest.setTimeout(90_000);

const PRICE = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };
/** The relay's limit in this spec: 64 KiB, so a four-second 8 kHz WAV (64 044 bytes) fits and five do not. */
const FILE_LIMIT = 64 * 1024;
/** The fake transcribes three tokens a second and counts ten audio tokens a second. */
const FOUR_SECONDS = { transcript: 12, audio: 40 };

const costOf = (prompt: number, completion: number) =>
  chargeQuota({ prompt_tokens: prompt, completion_tokens: completion, cached_tokens: 0 }, PRICE);

/**
 * Audio transcriptions and translations through the relay with the official SDK: the upload spooled
 * to a private file and removed after the call, whisper-1 charged by its transcript's tokens, the
 * gpt-4o transcribe models by the tokens they report, streams relayed, failover resending the file.
 */
describe.each(INFRASTRUCTURES)('audio uploads on %s infrastructure', (kind) => {
  const secret = randomBytes(32).toString('hex');
  let infra: TestInfrastructure;
  let world: RelayWorld;
  let upstream: FakeUpstream;
  let failing: FakeUpstream;
  let relay: RunningService;
  let usage: TopicRecorder;
  let spool: string;
  let key: TestKey;
  let whisper: string;
  let transcribe: string;
  let failover: string;

  const client = () => new OpenAI({ apiKey: key.apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });
  const clip = (seconds = 4) => toFile(silentWav(seconds), 'clip.wav', { type: 'audio/wav' });
  const usageOf = (model: string) =>
    eventually(`the usage event of ${model}`, async () =>
      usage.values<UsageRecorded>((event) => event.user_id === key.userId && event.model === model).at(-1),
    );
  const post = (path: string, body: FormData | string, contentType?: string) =>
    fetch(`${relay.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.apiKey}`,
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      body,
    });

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'relay-audio', { database: false });
    world = new RelayWorld(infra.runtime.bus, infra.runId);
    spool = await mkdtemp(join(tmpdir(), 'relay-audio-spec-'));
    upstream = await startFakeUpstream({ chunks: 2 });
    failing = await startFakeUpstream({ failRate: 1, failStatus: 503 });
    whisper = world.model('whisper-1');
    transcribe = world.model('gpt-4o-transcribe');
    failover = world.model('whisper-failover');
    relay = await startRelay(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: world.encryptionKey,
        RELAY_AUDIO_FILE_LIMIT_BYTES: String(FILE_LIMIT),
        RELAY_UPLOAD_DIR: spool,
      },
      infra.runtime,
    );
    usage = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.usageRecorded.name,
      `relay-audio-usage-${infra.runId}`,
    );
    await Promise.all([world.price(whisper), world.price(transcribe), world.price(failover)]);
    await world.channel({ key: 'sk-fake-openai-key', base_url: upstream.url, models: [whisper, transcribe] });
    // The failing channel comes first; the call must move on with the same file.
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: failing.url,
      models: [failover],
      priority: 10,
    });
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [failover],
      model_mapping: { [failover]: 'whisper-1' },
    });
    await waitUntilReady(relay.url);
    key = await world.key(50_000_000);
    await eventually('the key on the relay', async () => {
      const models = await fetch(`${relay.url}/v1/models`, {
        headers: { authorization: `Bearer ${key.apiKey}` },
      });
      return models.status === 200 ? true : undefined;
    });
  });

  afterAll(async () => {
    await usage?.stop();
    await relay?.close();
    await upstream?.close();
    await failing?.close();
    await infra?.close();
    if (spool !== undefined) await rm(spool, { recursive: true, force: true });
  });

  it('transcribes with whisper-1, charged by the transcript, with the cost in the answer', async () => {
    const { data, response } = await client()
      .audio.transcriptions.create({ file: await clip(), model: whisper })
      .withResponse();
    const quota = costOf(0, FOUR_SECONDS.transcript);
    expect(data.text.split(' ')).toHaveLength(FOUR_SECONDS.transcript);
    // No exchange rate is published here: the cost is in dollars, and says so.
    expect(data.usage).toEqual({
      type: 'duration',
      seconds: 4,
      cost: quota / QUOTA_PER_USD,
      cost_currency: 'USD',
      cost_quota: quota,
    });
    expect(response.headers.get('x-tollgate-cost-quota')).toBe(String(quota));
    expect(await usageOf(whisper)).toMatchObject({
      prompt_tokens: 0,
      completion_tokens: FOUR_SECONDS.transcript,
      quota,
      status: 'success',
      is_stream: false,
    });
  });

  it('charges the gpt-4o transcribe models by the tokens they report, the model field before or after the file', async () => {
    const answer = await client().audio.transcriptions.create({ file: await clip(), model: transcribe });
    expect(answer.usage).toMatchObject({
      type: 'tokens',
      input_tokens: FOUR_SECONDS.audio,
      output_tokens: FOUR_SECONDS.transcript,
      cost_quota: costOf(FOUR_SECONDS.audio, FOUR_SECONDS.transcript),
    });
    // Python's SDK sends the fields first; the relay takes either order.
    const form = new FormData();
    form.append('model', transcribe);
    form.append('response_format', 'text');
    form.append('file', new Blob([silentWav(4)], { type: 'audio/wav' }), 'clip.wav');
    const text = await post('/v1/audio/transcriptions', form);
    expect(text.status).toBe(200);
    expect((await text.text()).trim().split(' ')).toHaveLength(FOUR_SECONDS.transcript);
    // A text answer carries no usage: it is counted from the transcript.
    expect(text.headers.get('x-tollgate-cost-quota')).toBe(String(costOf(0, FOUR_SECONDS.transcript)));
  });

  it('relays subtitles and translations, and a transcript stream with its usage', async () => {
    const srt = await client().audio.transcriptions.create({
      file: await clip(),
      model: whisper,
      response_format: 'srt',
    });
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:04,000\n\w+/);
    const translation = await client().audio.translations.create({ file: await clip(), model: whisper });
    expect(translation.text.split(' ')).toHaveLength(FOUR_SECONDS.transcript);

    const stream = await client().audio.transcriptions.create({
      file: await clip(),
      model: transcribe,
      stream: true,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['transcript.text.delta', 'transcript.text.delta', 'transcript.text.done']);
    expect(
      await eventually('the streamed call', async () =>
        usage
          .values<UsageRecorded>((e) => e.user_id === key.userId && e.model === transcribe && e.is_stream)
          .at(-1),
      ),
    ).toMatchObject({ prompt_tokens: FOUR_SECONDS.audio, completion_tokens: FOUR_SECONDS.transcript });
  });

  it('sends the spooled file again when the first channel fails', async () => {
    const answer = await client().audio.transcriptions.create({ file: await clip(), model: failover });
    expect(answer.text.split(' ')).toHaveLength(FOUR_SECONDS.transcript);
    expect(await usageOf(failover)).toMatchObject({ upstream_model: 'whisper-1', status: 'success' });
    expect(failing.stats().byRoute['openai.audio.transcriptions']).toBeGreaterThanOrEqual(1);
  });

  it('refuses a file over the limit with 413, and bad forms with 400, charging nothing', async () => {
    const before = usage.values<UsageRecorded>((e) => e.user_id === key.userId).length;
    const tooLarge = await client()
      .audio.transcriptions.create({ file: await clip(5), model: whisper })
      .catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(OpenAI.APIError);
    expect((tooLarge as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((tooLarge as Error).message).toContain(`${FILE_LIMIT} bytes`);

    const noFile = new FormData();
    noFile.append('model', whisper);
    const missingFile = await post('/v1/audio/transcriptions', noFile);
    expect(missingFile.status).toBe(400);
    expect(await missingFile.json()).toMatchObject({ error: { message: expect.stringContaining('file') } });

    const noModel = new FormData();
    noModel.append('file', new Blob([silentWav(1)], { type: 'audio/wav' }), 'clip.wav');
    const missingModel = await post('/v1/audio/translations', noModel);
    expect(missingModel.status).toBe(400);
    expect(await missingModel.json()).toMatchObject({ error: { message: expect.stringContaining('model') } });

    const json = await post(
      '/v1/audio/transcriptions',
      JSON.stringify({ model: whisper }),
      'application/json',
    );
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: { message: expect.stringContaining('multipart') } });

    const unknown = await client()
      .audio.transcriptions.create({ file: await clip(1), model: 'no-such-model' })
      .catch((error: unknown) => error);
    expect((unknown as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
    // A refused call publishes nothing.
    expect(usage.values<UsageRecorded>((e) => e.user_id === key.userId)).toHaveLength(before);
  });

  it('keeps no upload once its call is over', async () => {
    await client().audio.transcriptions.create({ file: await clip(), model: whisper });
    // The file is deleted as the call ends, just after the answer went out.
    const left = await eventually('an empty spool directory', async () => {
      const entries = await readdir(spool);
      return entries.length === 0 ? entries : undefined;
    }).catch(() => readdir(spool));
    expect(left).toEqual([]);
  });
});
