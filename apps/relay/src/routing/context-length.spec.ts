import { upstreamHttpFailure } from './attempt-failure';
import { isContextLengthRefusal } from './context-length';
import { classifyFailure } from './failure-classification';

/** Each provider's refusal of an over-long prompt, as its API answers it. */
const REFUSALS = {
  openai: upstreamHttpFailure(400, {
    error: {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  }),
  'an OpenAI-compatible server without a code (vLLM)': upstreamHttpFailure(400, {
    object: 'error',
    error: {
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      code: 400,
    },
  }),
  anthropic: upstreamHttpFailure(400, {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
  }),
  'anthropic (answer limit)': upstreamHttpFailure(400, {
    type: 'error',
    error: {
      type: 'invalid_request_error',
      message:
        'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
    },
  }),
  gemini: upstreamHttpFailure(400, {
    error: {
      code: 400,
      message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      status: 'INVALID_ARGUMENT',
    },
  }),
};

describe('isContextLengthRefusal', () => {
  it.each(Object.entries(REFUSALS))("knows %s's refusal of a prompt too long for the model", (_, failure) => {
    expect(isContextLengthRefusal(failure)).toBe(true);
  });

  it.each(Object.entries(REFUSALS))(
    "neither retries %s's refusal on another channel nor holds it against the channel",
    (_, failure) => {
      expect(classifyFailure(failure)).toEqual({ retriable: false, fault: undefined, breakerFailure: false });
    },
  );

  it('leaves other refusals, rate limits and outages alone', () => {
    const openai = (status: number, message: string, code: string | null = null) =>
      upstreamHttpFailure(status, { error: { message, type: 'invalid_request_error', code } });
    expect(isContextLengthRefusal(openai(400, "Invalid value for 'temperature'", 'invalid_value'))).toBe(
      false,
    );
    expect(isContextLengthRefusal(openai(429, 'Rate limit reached for requests'))).toBe(false);
    expect(isContextLengthRefusal(openai(500, "This model's maximum context length is 8192 tokens"))).toBe(
      false,
    );
    expect(isContextLengthRefusal({ kind: 'connect', message: 'ECONNRESET' })).toBe(false);
    expect(isContextLengthRefusal({ kind: 'http', status: 400 })).toBe(false);
  });
});
