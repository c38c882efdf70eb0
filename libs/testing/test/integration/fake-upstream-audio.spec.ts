import OpenAI, { toFile } from 'openai';
import { completionText, silentWav, startFakeUpstream, type FakeUpstream } from '../../src';

const KEY = 'sk-test-openai';
let upstream: FakeUpstream;
let openai: OpenAI;
/** Four seconds of audio: transcripts run three tokens a second. */
const clip = () => toFile(silentWav(4), 'clip.wav', { type: 'audio/wav' });
const TRANSCRIPT = completionText(12, 2).text;

beforeAll(async () => {
  upstream = await startFakeUpstream({ chunks: 2, keys: { openai: KEY } });
  openai = new OpenAI({ apiKey: KEY, baseURL: `${upstream.url}/v1`, maxRetries: 0 });
});

afterAll(() => upstream.close());

describe('the fake upstream transcribes uploads as OpenAI does', () => {
  it('reports whisper-1 usage in seconds and the gpt-4o transcribe models in tokens', async () => {
    const whisper = await openai.audio.transcriptions.create({ file: await clip(), model: 'whisper-1' });
    expect(whisper).toEqual({ text: TRANSCRIPT, usage: { type: 'duration', seconds: 4 } });

    const tokens = await openai.audio.transcriptions.create({
      file: await clip(),
      model: 'gpt-4o-transcribe',
    });
    expect(tokens).toEqual({
      text: TRANSCRIPT,
      usage: {
        type: 'tokens',
        input_tokens: 40,
        input_token_details: { text_tokens: 0, audio_tokens: 40 },
        output_tokens: 12,
        total_tokens: 52,
      },
    });
  });

  it('answers text, srt, vtt and verbose_json, and translations without usage', async () => {
    const text = await openai.audio.transcriptions.create({
      file: await clip(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(text).toBe(`${TRANSCRIPT}\n`);
    const srt = await openai.audio.transcriptions.create({
      file: await clip(),
      model: 'whisper-1',
      response_format: 'srt',
    });
    expect(srt).toBe(`1\n00:00:00,000 --> 00:00:04,000\n${TRANSCRIPT}\n\n`);
    const verbose = await openai.audio.transcriptions.create({
      file: await clip(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ task: 'transcribe', duration: 4, text: TRANSCRIPT });

    const translation = await openai.audio.translations.create({ file: await clip(), model: 'whisper-1' });
    expect(translation).toEqual({ text: TRANSCRIPT });
  });

  it('streams the gpt-4o transcribe models, ending with the usage', async () => {
    const stream = await openai.audio.transcriptions.create({
      file: await clip(),
      model: 'gpt-4o-mini-transcribe',
      stream: true,
    });
    const events: Array<{ type: string }> = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'transcript.text.delta',
      'transcript.text.delta',
      'transcript.text.done',
    ]);
    expect(events.at(-1)).toMatchObject({ text: TRANSCRIPT, usage: { output_tokens: 12 } });
  });

  it('refuses what OpenAI refuses', async () => {
    await expect(
      openai.audio.translations.create({ file: await clip(), model: 'gpt-4o-transcribe' }),
    ).rejects.toMatchObject({ status: 400, param: 'model' });
    await expect(
      openai.audio.transcriptions.create({
        file: await clip(),
        model: 'gpt-4o-transcribe',
        response_format: 'srt',
      }),
    ).rejects.toMatchObject({ status: 400, param: 'response_format' });
    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    const answer = await fetch(`${upstream.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: noFile,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { param: 'file' } });
  });
});
