import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUOTA_PER_USD, type UsageRecorded } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES, silentWav, type FakeUpstream } from '@tollgate/testing';
import OpenAI, { toFile } from 'openai';
import type { TestKey } from '../support/relay-world';
import { aChannelOn, costOf as charged } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** The relay's limit in this spec: 64 KiB, so a four-second 8 kHz WAV (64 044 bytes) fits and five do not. */
const FILE_LIMIT = 64 * 1024;
/** The fake transcribes three tokens a second and counts ten audio tokens a second. */
const FOUR_SECONDS = { transcript: 12, audio: 40 };

const costOf = (prompt: number, completion: number) =>
  charged({ prompt_tokens: prompt, completion_tokens: completion });

/**
 * Audio transcriptions and translations through the relay with the official SDK: the upload spooled
 * to a private file and removed after the call, whisper-1 charged by its transcript's tokens, the
 * gpt-4o transcribe models by the tokens they report, streams relayed, failover resending the file.
 */
describe.each(INFRASTRUCTURES)('audio uploads on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-audio', { recordUsage: true });
  let failing: FakeUpstream;
  let relay: Relay;
  let spool: string;
  let key: TestKey;
  let whisper: string;
  let transcribe: string;
  let failover: string;
  let breaking: string;

  const client = () => new OpenAI({ apiKey: key.apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });
  const clip = (seconds = 4) => toFile(silentWav(seconds), 'clip.wav', { type: 'audio/wav' });
  const usageOf = (model: string, match: (event: UsageRecorded) => boolean = () => true) =>
    harness
      .usageEvents(key.userId, 1, (event) => event.model === model && match(event))
      .then((e) => e.at(-1));
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
    await harness.open();
    const { world } = harness;
    spool = await mkdtemp(join(tmpdir(), 'relay-audio-spec-'));
    const upstream = await harness.upstream({ chunks: 2 });
    failing = await harness.upstream({ failRate: 1, failStatus: 503 });
    whisper = world.model('whisper-1');
    transcribe = world.model('gpt-4o-transcribe');
    failover = world.model('whisper-failover');
    breaking = world.model('gpt-4o-transcribe-breaking');
    relay = await harness.start({
      env: { RELAY_AUDIO_FILE_LIMIT_BYTES: String(FILE_LIMIT), RELAY_UPLOAD_DIR: spool },
    });
    // Sends each stream whole, transcript.text.done too, then breaks the connection.
    const breakingUpstream = await harness.upstream({ chunks: 2, breakAfterEnd: true });
    await Promise.all([whisper, transcribe, failover, breaking].map((model) => world.price(model)));
    await world.channel(aChannelOn(upstream, [whisper, transcribe]));
    // The failing channel comes first; the call must move on with the same file.
    await world.channel(aChannelOn(failing, [failover], { priority: 10 }));
    await world.channel(aChannelOn(upstream, [failover], { model_mapping: { [failover]: 'whisper-1' } }));
    await world.channel(
      aChannelOn(breakingUpstream, [breaking], { model_mapping: { [breaking]: 'gpt-4o-transcribe' } }),
    );
    key = await harness.readyKey([relay]);
  });

  afterAll(async () => {
    await harness.close();
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
    expect(await usageOf(transcribe, (e) => e.is_stream)).toMatchObject({
      prompt_tokens: FOUR_SECONDS.audio,
      completion_tokens: FOUR_SECONDS.transcript,
    });
  });

  it('tells a streamed transcript its cost in the usage of its transcript.text.done event, the amount charged', async () => {
    const stream = await client().audio.transcriptions.create({
      file: await clip(),
      model: transcribe,
      stream: true,
    });
    let done: Record<string, unknown> | undefined;
    for await (const event of stream) {
      if (event.type === 'transcript.text.done') done = event.usage as unknown as Record<string, unknown>;
      else expect(JSON.stringify(event)).not.toContain('cost');
    }
    const quota = costOf(FOUR_SECONDS.audio, FOUR_SECONDS.transcript);
    expect(done).toMatchObject({
      type: 'tokens',
      input_tokens: FOUR_SECONDS.audio,
      output_tokens: FOUR_SECONDS.transcript,
      cost: quota / QUOTA_PER_USD,
      cost_currency: 'USD',
      cost_quota: quota,
    });
    expect(await usageOf(transcribe, (e) => e.is_stream)).toMatchObject({ quota, status: 'success' });
  });

  it('charges a streamed transcript whose upstream broke the connection after transcript.text.done', async () => {
    const stream = await client().audio.transcriptions.create({
      file: await clip(),
      model: breaking,
      stream: true,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['transcript.text.delta', 'transcript.text.delta', 'transcript.text.done']);
    expect(await usageOf(breaking, (e) => e.is_stream)).toMatchObject({
      quota: costOf(FOUR_SECONDS.audio, FOUR_SECONDS.transcript),
      status: 'success',
    });
  });

  it('sends the spooled file again when the first channel fails', async () => {
    const answer = await client().audio.transcriptions.create({ file: await clip(), model: failover });
    expect(answer.text.split(' ')).toHaveLength(FOUR_SECONDS.transcript);
    expect(await usageOf(failover)).toMatchObject({ upstream_model: 'whisper-1', status: 'success' });
    expect(failing.stats().byRoute['openai.audio.transcriptions']).toBeGreaterThanOrEqual(1);
  });

  it('refuses a file over the limit with 413, and bad forms with 400, charging nothing', async () => {
    const before = harness.usageOf(key.userId).length;
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
    expect(harness.usageOf(key.userId)).toHaveLength(before);
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
