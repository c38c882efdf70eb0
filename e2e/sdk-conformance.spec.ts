import { runAnthropicNode } from './sdk-conformance/anthropic-node';
import { Forecast, type CaseResults, type SdkSettings } from './sdk-conformance/cases';
import { runGoogleGenAiNode } from './sdk-conformance/google-genai-node';
import { runOpenAiNode } from './sdk-conformance/openai-node';
import { runPythonSdk } from './sdk-conformance/python-sdk';
import { startSdkPlatform, type SdkPlatform } from './sdk-conformance/sdk-platform';

jest.setTimeout(300_000);

/** Each SDK in each language, run once against the platform; the tests below read what its calls gave. */
const RUNS = {
  'openai (Node)': runOpenAiNode,
  'openai (Python)': (s: SdkSettings) => runPythonSdk('openai_sdk.py', s),
  '@anthropic-ai/sdk (Node)': runAnthropicNode,
  'anthropic (Python)': (s: SdkSettings) => runPythonSdk('anthropic_sdk.py', s),
  '@google/genai (Node)': runGoogleGenAiNode,
  'google-genai (Python)': (s: SdkSettings) => runPythonSdk('google_genai_sdk.py', s),
} satisfies Record<string, (settings: SdkSettings) => Promise<CaseResults>>;
type RunName = keyof typeof RUNS;

/**
 * A client written today with each official SDK at its current defaults (only the base URL and the key
 * set) works through the gateway: the Python SDKs pinned in e2e/sdk-conformance/requirements.txt, the
 * Node SDKs in package-lock.json. One platform start; the six SDK runs go in parallel, and each test
 * asserts on one call's result.
 */
describe('the official SDKs at their default settings, through the gateway', () => {
  let platform: SdkPlatform;
  const results = new Map<RunName, CaseResults | Error>();

  beforeAll(async () => {
    platform = await startSdkPlatform();
    await Promise.all(
      (Object.entries(RUNS) as [RunName, (s: SdkSettings) => Promise<CaseResults>][]).map(
        async ([name, run]) => {
          results.set(
            name,
            await run(platform.settings).catch((error: unknown) =>
              error instanceof Error ? error : new Error(String(error)),
            ),
          );
        },
      ),
    );
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const models = () => platform.settings.models;
  function resultOf(run: RunName, name: string): CaseResults[string] {
    const found = results.get(run);
    if (found === undefined) throw new Error(`${run} did not run`);
    if (found instanceof Error) throw found;
    const result = found[name];
    if (result === undefined) throw new Error(`${run} has no case ${name}`);
    return result;
  }
  /** What the call gave; a call the SDK failed fails the test with the SDK's error. */
  function answerOf<T>(run: RunName, name: string): T {
    const result = resultOf(run, name);
    if ('error' in result) throw new Error(`${run} ${name}: ${JSON.stringify(result.error)}`);
    return result.ok as T;
  }
  const fitsForecast = (value: unknown) => expect(Forecast.strict().safeParse(value).error).toBeUndefined();

  describe.each<RunName>(['openai (Node)', 'openai (Python)'])('%s', (run) => {
    it('answers a chat completion', () => {
      expect(answerOf(run, 'chat')).toEqual({
        content: expect.stringMatching(/\S/),
        finish_reason: 'stop',
        completion_tokens: 8,
      });
    });

    it('streams a chat completion in pieces, the usage chunk last', () => {
      const answer = answerOf<{ text: string; pieces: number }>(run, 'stream');
      expect(answer).toEqual({
        text: expect.stringMatching(/\S/),
        pieces: expect.any(Number),
        completion_tokens: 8,
      });
      expect(answer.pieces).toBeGreaterThan(1);
    });

    it('calls a tool', () => {
      expect(answerOf(run, 'tools')).toEqual({
        finish_reason: 'tool_calls',
        name: 'get_weather',
        arguments: { city: expect.any(String) },
      });
    });

    it('parses structured output (chat.completions.parse with a json_schema response_format)', () => {
      const answer = answerOf<{ parsed: unknown; refusal: unknown }>(run, 'structured');
      expect(answer.refusal).toBeNull();
      fitsForecast(answer.parsed);
    });

    it('embeds two texts (the SDK asks for base64 and decodes it)', () => {
      const answer = answerOf<{ dimensions: number[] }>(run, 'embeddings');
      expect(answer).toMatchObject({ count: 2, floats: true, prompt_tokens: expect.any(Number) });
      expect(answer.dimensions[0]).toBeGreaterThan(0);
      expect(answer.dimensions[1]).toBe(answer.dimensions[0]);
    });

    it('lists the models the key may use', () => {
      expect(answerOf<{ ids: string[] }>(run, 'models').ids).toEqual(
        expect.arrayContaining(Object.values(models())),
      );
    });

    it("raises its BadRequestError naming the refused field as the error's param", () => {
      expect(resultOf(run, 'invalid_param')).toEqual({
        error: expect.objectContaining({
          type: 'BadRequestError',
          module: 'openai',
          status: 400,
          code: 'validation_failed',
          param: 'max_tokens',
        }),
      });
    });

    it("raises its AuthenticationError for a wrong key, with OpenAI's code invalid_api_key", () => {
      expect(resultOf(run, 'wrong_key')).toEqual({
        error: expect.objectContaining({
          type: 'AuthenticationError',
          module: 'openai',
          status: 401,
          code: 'invalid_api_key',
          param: null,
        }),
      });
    });
  });

  describe.each<RunName>(['@anthropic-ai/sdk (Node)', 'anthropic (Python)'])('%s', (run) => {
    it('answers a message, naming its request as the SDK reads it (_request_id)', () => {
      expect(answerOf(run, 'messages')).toEqual({
        text: expect.stringMatching(/\S/),
        stop_reason: 'end_turn',
        input_tokens: expect.any(Number),
        output_tokens: 8,
        request_id: true,
      });
    });

    it('streams a message in pieces', () => {
      const answer = answerOf<{ pieces: number }>(run, 'stream');
      expect(answer).toEqual({
        text: expect.stringMatching(/\S/),
        pieces: expect.any(Number),
        stop_reason: 'end_turn',
      });
      expect(answer.pieces).toBeGreaterThan(1);
    });

    it('calls a tool', () => {
      expect(answerOf(run, 'tools')).toEqual({
        stop_reason: 'tool_use',
        name: 'get_weather',
        input: { city: expect.any(String) },
      });
    });

    it('answers a forced tool with input that fits its schema', () => {
      const answer = answerOf<{ input: unknown }>(run, 'forced_tool');
      expect(answer).toMatchObject({ stop_reason: 'tool_use', name: 'record_forecast' });
      fitsForecast(answer.input);
    });

    it('parses structured output (messages.parse with an output_config json_schema format)', () => {
      fitsForecast(answerOf<{ parsed: unknown }>(run, 'structured').parsed);
    });

    it('counts a message’s tokens as the answer to it reports them (messages.count_tokens)', () => {
      const { input_tokens } = answerOf<{ input_tokens: number }>(run, 'messages');
      expect(input_tokens).toBeGreaterThan(0);
      expect(answerOf(run, 'count_tokens')).toEqual({ input_tokens });
    });

    it("lists the models the key may use in Anthropic's shape, two a page as well as all at once", () => {
      const answer = answerOf<{ ids: string[]; types: string[]; paged: string[] }>(run, 'models');
      expect(answer.ids).toEqual(expect.arrayContaining(Object.values(models())));
      expect(answer.types).toEqual(['model']);
      expect(answer.paged).toEqual(answer.ids);
    });

    it('gets one model (models.retrieve), and raises its NotFoundError for an unknown one', () => {
      expect(answerOf(run, 'model_get')).toEqual({
        id: models().anthropic,
        type: 'model',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
      });
      expect(resultOf(run, 'model_unknown')).toEqual({
        error: expect.objectContaining({ type: 'NotFoundError', module: 'anthropic', status: 404 }),
      });
    });

    it('raises its AuthenticationError for a wrong key', () => {
      expect(resultOf(run, 'wrong_key')).toEqual({
        error: expect.objectContaining({ type: 'AuthenticationError', module: 'anthropic', status: 401 }),
      });
    });
  });

  describe.each<[RunName, { type: string; module: string }]>([
    // @google/genai 2.32 defaults to Gemini API v1beta; google-genai 3.6 to v1.
    ['@google/genai (Node)', { type: 'ApiError', module: '@google/genai' }],
    ['google-genai (Python)', { type: 'ClientError', module: 'google' }],
  ])('%s', (run, authError) => {
    it('generates content', () => {
      expect(answerOf(run, 'generate')).toEqual({
        text: expect.stringMatching(/\S/),
        finish_reason: 'STOP',
        prompt_tokens: expect.any(Number),
        output_tokens: 8,
      });
    });

    it('streams generated content in pieces', () => {
      const answer = answerOf<{ text: string; pieces: number }>(run, 'stream');
      expect(answer.text).toMatch(/\S/);
      expect(answer.pieces).toBeGreaterThan(1);
    });

    it('calls a function', () => {
      expect(answerOf(run, 'tools')).toEqual({ name: 'get_weather', args: { city: expect.any(String) } });
    });

    it('answers JSON that fits a response schema', () => {
      fitsForecast(answerOf<{ parsed: unknown }>(run, 'structured').parsed);
    });

    it('embeds two texts (batchEmbedContents)', () => {
      const answer = answerOf<{ dimensions: number[] }>(run, 'embeddings');
      expect(answer).toMatchObject({ count: 2, floats: true });
      expect(answer.dimensions[0]).toBeGreaterThan(0);
      expect(answer.dimensions[1]).toBe(answer.dimensions[0]);
    });

    it('counts tokens as generating from the same contents reports them (countTokens)', () => {
      const { prompt_tokens } = answerOf<{ prompt_tokens: number }>(run, 'generate');
      expect(prompt_tokens).toBeGreaterThan(0);
      expect(answerOf(run, 'count_tokens')).toEqual({ total_tokens: prompt_tokens });
    });

    it('lists the models the key may use, and gets one', () => {
      expect(answerOf<{ names: string[] }>(run, 'models').names).toEqual(
        expect.arrayContaining([`models/${models().gemini}`, `models/${models().gemini_embedding}`]),
      );
      expect(answerOf(run, 'model_get')).toEqual({ name: `models/${models().gemini}` });
    });

    it('raises its API error with status 401 for a wrong key', () => {
      expect(resultOf(run, 'wrong_key')).toEqual({
        error: expect.objectContaining({ ...authError, status: 401 }),
      });
    });
  });
});
