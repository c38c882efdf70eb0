import Anthropic from '@anthropic-ai/sdk';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import OpenAI, { AzureOpenAI } from 'openai';
import {
  completionText,
  FAKE_UPSTREAM_LISTEN_BACKLOG,
  countPromptTokens,
  runFakeUpstreamCli,
  startFakeUpstream,
  TOOL_CALL_MARKER,
  type FakeUpstream,
  type FakeUpstreamStats,
} from '../../src';

const KEYS = {
  openai: 'sk-test-openai',
  azure: 'azure-test',
  anthropic: 'sk-ant-test',
  gemini: 'gemini-test',
};
const BASE_BEHAVIOUR = {
  latencyMs: 0,
  chunks: 4,
  chunkMs: 0,
  completionTokens: 12,
  failStatus: 500,
  failRate: 0,
  dropAfter: null,
  breakAfterEnd: false,
  embeddingDimensions: 32,
};
const ANSWER = completionText(12, 4).text;

const weatherFunction = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city'],
  },
};

let upstream: FakeUpstream;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startFakeUpstream({ ...BASE_BEHAVIOUR, keys: KEYS, closeGraceMs: 200 });
  openai = new OpenAI({ apiKey: KEYS.openai, baseURL: `${upstream.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: KEYS.anthropic, baseURL: upstream.url, maxRetries: 0 });
});

afterAll(async () => {
  await upstream.close();
});

afterEach(() => {
  upstream.setOptions(BASE_BEHAVIOUR);
  upstream.resetStats();
});

async function eventually(
  check: (stats: FakeUpstreamStats) => boolean,
  timeoutMs = 2_000,
): Promise<FakeUpstreamStats> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = upstream.stats();
    if (check(stats)) return stats;
    if (Date.now() > deadline) throw new Error(`stats never matched: ${JSON.stringify(stats)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('fake upstream, OpenAI surface (official openai client)', () => {
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'What is the capital of France?' },
  ];
  const promptTokens = countPromptTokens(['You are terse.', 'What is the capital of France?']);

  it('answers a chat completion with usage counted from the input', async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.choices[0]!.message.content).toBe(ANSWER);
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.usage).toMatchObject({
      prompt_tokens: promptTokens,
      completion_tokens: 12,
      total_tokens: promptTokens + 12,
    });
  });

  it('streams chunks that carry exactly the answer, and a final usage chunk when asked', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let contentChunks = 0;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content;
      if (delta) contentChunks += 1;
      text += delta ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(ANSWER);
    expect(contentChunks).toBe(4);
    expect(usage).toMatchObject({ prompt_tokens: promptTokens, completion_tokens: 12 });
  });

  it('answers a forced tool call, plain and streamed', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: weatherFunction }];
    const plain = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      tools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(plain.choices[0]!.finish_reason).toBe('tool_calls');
    const call = plain.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      city: 'fake-city',
      days: 42,
    });

    const streamed = await openai.chat.completions
      .stream({
        model: 'gpt-4o-mini',
        tools,
        messages: [{ role: 'user', content: `Weather? ${TOOL_CALL_MARKER}` }],
      })
      .finalChatCompletion();
    const streamedCall = streamed.choices[0]!.message.tool_calls![0]!;
    expect(streamed.choices[0]!.finish_reason).toBe('tool_calls');
    expect(streamedCall.type === 'function' && streamedCall.function.name).toBe('get_weather');
    expect(streamedCall.type === 'function' && JSON.parse(streamedCall.function.arguments)).toEqual({
      city: 'fake-city',
      days: 42,
    });
  });

  it("refuses a wrong key with OpenAI's 401", async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong-key-1234', baseURL: `${upstream.url}/v1`, maxRetries: 0 });
    const error = await wrong.chat.completions
      .create({ model: 'gpt-4o-mini', messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    expect(upstream.stats().unauthorized).toBe(1);
  });

  it('answers legacy completions, embeddings and the model list', async () => {
    const completion = await openai.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Say hi',
      max_tokens: 5,
    });
    expect(completion.choices[0]).toMatchObject({ text: completionText(5, 4).text, finish_reason: 'length' });
    expect(completion.usage).toMatchObject({
      prompt_tokens: countPromptTokens(['Say hi']),
      completion_tokens: 5,
    });

    // The client asks for base64 by default and decodes it.
    const embeddings = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['alpha', 'beta'],
    });
    expect(embeddings.data).toHaveLength(2);
    expect(embeddings.data[0]!.embedding).toHaveLength(32);
    expect(embeddings.data[0]!.embedding).not.toEqual(embeddings.data[1]!.embedding);
    expect(embeddings.usage.prompt_tokens).toBe(countPromptTokens(['alpha']) + countPromptTokens(['beta']));
    const floats = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'alpha',
      encoding_format: 'float',
      dimensions: 8,
    });
    expect(floats.data[0]!.embedding).toHaveLength(8);

    const models = await openai.models.list();
    expect(models.data.map((model) => model.id)).toContain('gpt-4o-mini');
  });

  it('generates a PNG inline or by link, and speech audio', async () => {
    const inline = await openai.images.generate({
      model: 'dall-e-3',
      prompt: 'a cat',
      response_format: 'b64_json',
    });
    expect(Buffer.from(inline.data![0]!.b64_json!, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
    const linked = await openai.images.generate({
      model: 'dall-e-3',
      prompt: 'a cat',
      response_format: 'url',
    });
    const image = await fetch(linked.data![0]!.url!);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString('ascii'),
    ).toBe('PNG');

    const speech = await openai.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'hello',
      response_format: 'wav',
    });
    expect(speech.headers.get('content-type')).toBe('audio/wav');
    expect(
      Buffer.from(await speech.arrayBuffer())
        .subarray(0, 4)
        .toString('ascii'),
    ).toBe('RIFF');
  });

  it('answers the Responses API, plain and streamed', async () => {
    const response = await openai.responses.create({
      model: 'gpt-4.1-mini',
      instructions: 'Be brief.',
      input: 'Hello',
    });
    expect(response.output_text).toBe(ANSWER);
    expect(response.usage).toMatchObject({
      input_tokens: countPromptTokens(['Be brief.', 'Hello']),
      output_tokens: 12,
    });

    const stream = openai.responses.stream({ model: 'gpt-4.1-mini', input: 'Hello' });
    let deltas = '';
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expect(deltas).toBe(ANSWER);
    expect(final.status).toBe('completed');
    expect(final.output[0]).toMatchObject({
      type: 'message',
      content: [{ type: 'output_text', text: ANSWER }],
    });
  });

  it("speaks Azure's deployment paths with the api-key header", async () => {
    const azure = new AzureOpenAI({
      apiKey: KEYS.azure,
      endpoint: upstream.url,
      apiVersion: '2024-10-21',
      deployment: 'prod-gpt',
      maxRetries: 0,
    });
    const completion = await azure.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.choices[0]!.message.content).toBe(ANSWER);
    expect(upstream.stats().byRoute['azure.chat.completions']).toBe(1);

    const wrong = new AzureOpenAI({
      apiKey: 'nope',
      endpoint: upstream.url,
      apiVersion: '2024-10-21',
      deployment: 'prod-gpt',
      maxRetries: 0,
    });
    await expect(wrong.chat.completions.create({ model: 'gpt-4o-mini', messages })).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('fake upstream, Anthropic surface (official @anthropic-ai/sdk client)', () => {
  const request = {
    model: 'claude-sonnet-5-5',
    max_tokens: 256,
    system: 'You are terse.',
    messages: [{ role: 'user' as const, content: 'What is the capital of France?' }],
  };
  const inputTokens = countPromptTokens(['You are terse.', 'What is the capital of France?']);

  it('answers a message with usage and cache fields', async () => {
    const message = await anthropic.messages.create(request);
    expect(message.content).toEqual([{ type: 'text', text: ANSWER }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({
      input_tokens: inputTokens,
      output_tokens: 12,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });

  it('streams the real event sequence that the SDK assembles', async () => {
    const stream = anthropic.messages.stream(request);
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    // The SDK swallows `ping` (the unit test of the transform checks it is sent).
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      ...Array<string>(4).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(message.content).toMatchObject([{ type: 'text', text: ANSWER }]);
    expect(message.usage).toMatchObject({ input_tokens: inputTokens, output_tokens: 12 });
  });

  it('streams a tool_use block as input_json_delta', async () => {
    const message = await anthropic.messages
      .stream({
        ...request,
        tools: [
          { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
        tool_choice: { type: 'any' },
      })
      .finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { city: 'fake-city' },
    });
  });

  it("refuses a wrong key with Anthropic's 401", async () => {
    const wrong = new Anthropic({ apiKey: 'sk-ant-wrong', baseURL: upstream.url, maxRetries: 0 });
    const error = await wrong.messages.create(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });
  });
});

describe('fake upstream, Gemini surface (fetch)', () => {
  const body = {
    systemInstruction: { parts: [{ text: 'You are terse.' }] },
    contents: [{ role: 'user', parts: [{ text: 'What is the capital of France?' }] }],
  };
  const promptTokens = countPromptTokens(['You are terse.', 'What is the capital of France?']);
  const post = (
    operation: string,
    payload: unknown,
    headers: Record<string, string> = { 'x-goog-api-key': KEYS.gemini },
  ) =>
    fetch(`${upstream.url}/v1beta/models/gemini-2.5-flash:${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(payload),
    });

  it('answers generateContent with usageMetadata', async () => {
    const response = await post('generateContent', body);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: ANSWER }] }, finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount: 12,
        totalTokenCount: promptTokens + 12,
      },
      modelVersion: 'gemini-2.5-flash',
    });
  });

  it('streams SSE with the key in the query', async () => {
    const response = await post(`streamGenerateContent?alt=sse&key=${KEYS.gemini}`, body, {});
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const chunks = (await response.text())
      .split('\r\n\r\n')
      .filter(Boolean)
      .map(
        (frame) =>
          JSON.parse(frame.replace(/^data: /, '')) as {
            candidates: Array<{ content: { parts: Array<{ text: string }> } }>;
          },
      );
    expect(chunks.map((chunk) => chunk.candidates[0]!.content.parts[0]!.text).join('')).toBe(ANSWER);
  });

  it('answers a functionCall when the config demands one', async () => {
    const response = await post('generateContent', {
      ...body,
      tools: [{ functionDeclarations: [weatherFunction] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    });
    expect(await response.json()).toMatchObject({
      candidates: [
        {
          content: {
            parts: [{ functionCall: { name: 'get_weather', args: { city: 'fake-city', days: 42 } } }],
          },
        },
      ],
    });
  });

  it('refuses a wrong key (400 API_KEY_INVALID) and a missing one (403), as Gemini does', async () => {
    const wrong = await post('generateContent', body, { 'x-goog-api-key': 'nope' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: { status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] },
    });
    const missing = await post('generateContent', body, {});
    expect(missing.status).toBe(403);
  });
});

describe('fake upstream, behaviours', () => {
  const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

  it("injects failures on every k-th request, in each provider's shape, 429 with Retry-After", async () => {
    upstream.setOptions({ failStatus: 429, failRate: 0.5, retryAfterSeconds: 3 });
    await expect(openai.chat.completions.create(chat)).resolves.toBeDefined();
    const failed = await openai.chat.completions.create(chat).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failed).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((failed as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('3');

    await expect(anthropic.messages.create({ ...chat, max_tokens: 10 })).resolves.toBeDefined();
    const anthropicFailure = await anthropic.messages
      .create({ ...chat, max_tokens: 10 })
      .catch((e: unknown) => e);
    expect(anthropicFailure).toBeInstanceOf(Anthropic.RateLimitError);
    expect(anthropicFailure).toMatchObject({ error: { error: { type: 'rate_limit_error' } } });
    expect(upstream.stats().injectedFailures).toBe(2);
  });

  it('cuts a stream after N chunks by destroying the socket', async () => {
    upstream.setOptions({ dropAfter: 2 });
    const stream = await openai.chat.completions.create({ ...chat, stream: true });
    let text = '';
    const outcome = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(String(outcome)).toMatch(/terminated/); // undici's word for a body cut short
    expect(text).toBe(completionText(12, 4).chunks.slice(0, 2).join(''));
    await eventually((stats) => stats.droppedStreams === 1);
  });

  it('sends a stream whole, [DONE] too, and then breaks the connection with breakAfterEnd', async () => {
    upstream.setOptions({ breakAfterEnd: true });
    const stream = await openai.chat.completions.create({ ...chat, stream: true });
    let text = '';
    let finish: string | null | undefined;
    const outcome = await (async () => {
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    })().catch((e: unknown) => e);
    // The whole answer arrived, and then the body ended cut short.
    expect(String(outcome)).toMatch(/terminated/);
    expect(text).toBe(ANSWER);
    expect(finish).toBe('stop');
    await eventually((stats) => stats.droppedStreams === 1);
  });

  it('counts a stream the client walked away from', async () => {
    upstream.setOptions({ chunkMs: 40 });
    const stream = await openai.chat.completions.create({ ...chat, stream: true });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) break; // leaving the loop aborts the request
    }
    const stats = await eventually((s) => s.abortedStreams === 1);
    expect(stats).toMatchObject({ streamsStarted: 1, streamsCompleted: 0, activeStreams: 0 });
  });

  it('waits latencyMs before the first byte', async () => {
    upstream.setOptions({ latencyMs: 150 });
    const started = performance.now();
    await openai.chat.completions.create(chat);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('counts requests per route and answers unknown paths with 404', async () => {
    await openai.chat.completions.create(chat);
    await openai.models.list();
    const missing = await fetch(`${upstream.url}/v1/nothing-here`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(upstream.stats()).toMatchObject({
      requests: 3,
      byRoute: { 'openai.chat.completions': 1, 'openai.models': 1, not_found: 1 },
    });
  });

  it('takes options and reports stats over HTTP, for a fake in another process', async () => {
    const patched = await fetch(`${upstream.url}/__fake/options`, {
      method: 'POST',
      body: JSON.stringify({ failRate: 1, failStatus: 503 }),
    });
    expect(patched.status).toBe(200);
    await expect(openai.chat.completions.create(chat)).rejects.toMatchObject({ status: 503 });
    const stats = (await (await fetch(`${upstream.url}/__fake/stats`)).json()) as FakeUpstreamStats;
    expect(stats).toMatchObject({ requests: 1, injectedFailures: 1 });
    const refused = await fetch(`${upstream.url}/__fake/options`, { method: 'POST', body: '{"failRate":7}' });
    expect(refused.status).toBe(400);
  });

  it('listens with an accept queue of FAKE_UPSTREAM_LISTEN_BACKLOG (as far as somaxconn lets it)', () => {
    // ss's Send-Q of a listening socket is its accept queue's length.
    const line = execFileSync('ss', ['-ltnH', `sport = :${upstream.port}`], { encoding: 'utf8' }).trim();
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(FAKE_UPSTREAM_LISTEN_BACKLOG).toBeGreaterThan(511);
    expect(Number(line.split(/\s+/)[2])).toBe(Math.min(FAKE_UPSTREAM_LISTEN_BACKLOG, somaxconn));
  });

  it('closes idle keep-alive connections on POST /__fake/close-idle, and not a stream in flight', async () => {
    upstream.setOptions({ chunkMs: 30 });
    const idle = connect(upstream.port, '127.0.0.1');
    idle.write('GET /health HTTP/1.1\r\nhost: fake\r\n\r\n');
    await once(idle, 'data');
    const idleClosed = once(idle, 'close');
    const stream = await openai.chat.completions.create({ ...chat, stream: true });

    const closing = await fetch(`${upstream.url}/__fake/close-idle`, { method: 'POST' });

    expect(closing.status).toBe(200);
    expect(await closing.json()).toEqual({ connectionsBefore: expect.any(Number) as number });
    await idleClosed;
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(ANSWER);
  });

  it('lets streams in flight finish on close, then stops', async () => {
    const own = await startFakeUpstream({ ...BASE_BEHAVIOUR, keys: KEYS, chunkMs: 30 });
    const client = new OpenAI({ apiKey: KEYS.openai, baseURL: `${own.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    const closed = own.close();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    await closed;
    expect(text).toBe(ANSWER);
    await expect(fetch(`${own.url}/health`)).rejects.toThrow();
  });
});

describe('fake upstream CLI', () => {
  it('starts from flags and prints the line scripts wait for', async () => {
    const lines: string[] = [];
    const outcome = await runFakeUpstreamCli(
      ['--port', '0', '--completion-tokens', '3', '--openai-key', KEYS.openai],
      {
        out: (line) => lines.push(line),
        error: (line) => lines.push(line),
      },
    );
    if (!outcome.started) throw new Error(`CLI did not start: ${lines.join('\n')}`);
    try {
      expect(lines).toEqual([`fake-upstream listening on ${outcome.upstream.url}`]);
      expect(outcome.upstream.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = new OpenAI({
        apiKey: KEYS.openai,
        baseURL: `${outcome.upstream.url}/v1`,
        maxRetries: 0,
      });
      const completion = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(completion.usage?.completion_tokens).toBe(3);
    } finally {
      await outcome.upstream.close();
    }
  });

  it('refuses a bad flag with exit code 2 and the usage', async () => {
    const errors: string[] = [];
    const outcome = await runFakeUpstreamCli(['--fail-rate', 'often'], {
      out: () => undefined,
      error: (line) => errors.push(line),
    });
    expect(outcome).toEqual({ started: false, exitCode: 2 });
    expect(errors.join('\n')).toMatch(/--fail-rate must be a number[\s\S]*Usage:/);
  });
});
