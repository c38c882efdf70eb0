import { upstreamHttpFailure } from './attempt-failure';
import { detectChannelFault } from './channel-fault';
import { classifyFailure } from './failure-classification';

/** Error bodies as the providers document them. */
const openai = (type: string, code: string | null, message: string) => ({
  error: { message, type, param: null, code },
});
const anthropic = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const gemini = (code: number, status: string, message: string, reason?: string) => ({
  error: {
    code,
    message,
    status,
    ...(reason
      ? {
          details: [
            { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' },
          ],
        }
      : {}),
  },
});

describe('detectChannelFault', () => {
  it.each<{
    name: string;
    status: number;
    body: unknown;
    expected: 'invalid_key' | 'quota_exhausted' | undefined;
  }>([
    {
      name: 'OpenAI invalid key',
      status: 401,
      body: openai('invalid_request_error', 'invalid_api_key', 'Incorrect API key provided: sk-ab***cd.'),
      expected: 'invalid_key',
    },
    {
      name: 'OpenAI deactivated account',
      status: 401,
      body: openai('invalid_request_error', 'account_deactivated', 'This account has been deactivated.'),
      expected: 'invalid_key',
    },
    {
      name: 'OpenAI insufficient quota',
      status: 429,
      body: openai(
        'insufficient_quota',
        'insufficient_quota',
        'You exceeded your current quota, please check your plan and billing details.',
      ),
      expected: 'quota_exhausted',
    },
    {
      name: 'OpenAI billing hard limit',
      status: 400,
      body: openai(
        'invalid_request_error',
        'billing_hard_limit_reached',
        'Billing hard limit has been reached',
      ),
      expected: 'quota_exhausted',
    },
    {
      name: 'OpenAI rate limit',
      status: 429,
      body: openai('requests', 'rate_limit_exceeded', 'Rate limit reached for gpt-4o'),
      expected: undefined,
    },
    {
      name: 'OpenAI unsupported region (403, not about the key)',
      status: 403,
      body: openai(
        'request_forbidden',
        'unsupported_country_region_territory',
        'Country, region, or territory not supported',
      ),
      expected: undefined,
    },
    {
      name: 'OpenAI bad request',
      status: 400,
      body: openai('invalid_request_error', null, "'messages' is a required property"),
      expected: undefined,
    },
    {
      name: 'OpenAI server error',
      status: 500,
      body: openai('server_error', null, 'The server had an error'),
      expected: undefined,
    },
    {
      name: 'Anthropic authentication error',
      status: 401,
      body: anthropic('authentication_error', 'invalid x-api-key'),
      expected: 'invalid_key',
    },
    {
      name: 'Anthropic permission error',
      status: 403,
      body: anthropic(
        'permission_error',
        'Your API key does not have permission to use the specified resource.',
      ),
      expected: 'invalid_key',
    },
    {
      name: 'Anthropic billing error',
      status: 402,
      body: anthropic('billing_error', 'There is an issue with your billing information.'),
      expected: 'quota_exhausted',
    },
    {
      name: 'Anthropic credit balance too low',
      status: 400,
      body: anthropic(
        'invalid_request_error',
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      ),
      expected: 'quota_exhausted',
    },
    {
      name: 'Anthropic overloaded',
      status: 529,
      body: anthropic('overloaded_error', 'Overloaded'),
      expected: undefined,
    },
    {
      name: 'Anthropic rate limit',
      status: 429,
      body: anthropic('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
      expected: undefined,
    },
    {
      name: 'Gemini invalid key (error detail reason)',
      status: 400,
      body: gemini(
        400,
        'INVALID_ARGUMENT',
        'API key not valid. Please pass a valid API key.',
        'API_KEY_INVALID',
      ),
      expected: 'invalid_key',
    },
    {
      name: 'Gemini invalid key (wording only)',
      status: 400,
      body: gemini(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.'),
      expected: 'invalid_key',
    },
    {
      name: 'Gemini permission denied',
      status: 403,
      body: gemini(403, 'PERMISSION_DENIED', "Permission denied: Consumer 'api_key:x' has been suspended."),
      expected: 'invalid_key',
    },
    {
      name: 'Gemini quota exhausted',
      status: 429,
      body: gemini(
        429,
        'RESOURCE_EXHAUSTED',
        'You exceeded your current quota, please check your plan and billing details.',
      ),
      expected: 'quota_exhausted',
    },
    {
      name: 'Gemini per-minute limit',
      status: 429,
      body: gemini(
        429,
        'RESOURCE_EXHAUSTED',
        'Quota exceeded for quota metric generate_content_requests per minute',
      ),
      expected: undefined,
    },
    {
      name: 'Gemini bad argument',
      status: 400,
      body: gemini(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'),
      expected: undefined,
    },
    {
      name: 'a bare 401 from a compatible upstream',
      status: 401,
      body: 'Unauthorized',
      expected: 'invalid_key',
    },
    { name: 'a bare 402', status: 402, body: '', expected: 'quota_exhausted' },
    {
      name: 'a bare 403 without auth wording',
      status: 403,
      body: '<html>Forbidden by WAF</html>',
      expected: undefined,
    },
    { name: 'a 503 HTML page', status: 503, body: '<html>Service Unavailable</html>', expected: undefined },
  ])('$name ($status) → $expected', ({ status, body, expected }) => {
    expect(detectChannelFault(upstreamHttpFailure(status, body))?.kind).toBe(expected);
  });

  it('never treats a connect error as a channel fault', () => {
    expect(detectChannelFault({ kind: 'connect', message: 'ECONNREFUSED' })).toBeUndefined();
  });

  it('reads a JSON body given as text and names only status, type and code in the reason', () => {
    const body = JSON.stringify(
      openai('invalid_request_error', 'invalid_api_key', 'Incorrect API key provided: sk-secret'),
    );
    const fault = detectChannelFault(upstreamHttpFailure(401, body));
    expect(fault).toEqual({
      kind: 'invalid_key',
      reason: 'invalid key (401 invalid_request_error invalid_api_key)',
    });
    expect(fault?.reason).not.toContain('sk-secret');
  });
});

describe('upstreamHttpFailure', () => {
  it('takes type and code from OpenAI, type from Anthropic, status and detail reason from Gemini', () => {
    expect(upstreamHttpFailure(429, openai('insufficient_quota', 'insufficient_quota', 'm'))).toEqual({
      kind: 'http',
      status: 429,
      errorType: 'insufficient_quota',
      errorCode: 'insufficient_quota',
      message: 'm',
    });
    expect(upstreamHttpFailure(401, anthropic('authentication_error', 'm'))).toEqual({
      kind: 'http',
      status: 401,
      errorType: 'authentication_error',
      message: 'm',
    });
    expect(upstreamHttpFailure(400, [gemini(400, 'INVALID_ARGUMENT', 'm', 'API_KEY_INVALID')])).toEqual({
      kind: 'http',
      status: 400,
      errorType: 'INVALID_ARGUMENT',
      errorCode: 'API_KEY_INVALID',
      message: 'm',
    });
  });

  it('keeps only the status of a body it cannot read', () => {
    expect(upstreamHttpFailure(502, 'Bad Gateway')).toEqual({ kind: 'http', status: 502 });
    expect(upstreamHttpFailure(500, { detail: 'x' })).toEqual({ kind: 'http', status: 500 });
  });
});

describe('classifyFailure', () => {
  it.each<[string, boolean, boolean, Parameters<typeof classifyFailure>[0]]>([
    ['connect error', true, true, { kind: 'connect', message: 'ECONNRESET' }],
    ['429 rate limit', true, true, { kind: 'http', status: 429 }],
    ['500', true, true, { kind: 'http', status: 500 }],
    ['503', true, true, { kind: 'http', status: 503 }],
    ['401 dead key (another channel may have a good one)', true, true, { kind: 'http', status: 401 }],
    ['400 bad request', false, false, { kind: 'http', status: 400 }],
    ['404 unknown model', false, false, { kind: 'http', status: 404 }],
    ['413 too large', false, false, { kind: 'http', status: 413 }],
  ])('%s: retriable %s, breaker failure %s', (_name, retriable, breakerFailure, failure) => {
    const verdict = classifyFailure(failure);
    expect(verdict.retriable).toBe(retriable);
    expect(verdict.breakerFailure).toBe(breakerFailure);
  });
});
