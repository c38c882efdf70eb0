import { ERROR_STATUS, ErrorCode } from './error-codes';
import { protocolOfPath, renderProtocolError } from './protocol-errors';

describe('protocol errors', () => {
  it('picks the dialect by path', () => {
    expect(protocolOfPath('/v1/chat/completions')).toBe('openai');
    expect(protocolOfPath('/v1/messages')).toBe('anthropic');
    expect(protocolOfPath('/v1/messages?beta=true')).toBe('anthropic');
    expect(protocolOfPath('/v1beta/models/gemini-2.5-flash:generateContent')).toBe('gemini');
    expect(protocolOfPath('/v1beta')).toBe('gemini');
    expect(protocolOfPath('/v1betax')).toBe('openai');
    expect(protocolOfPath('/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse')).toBe('gemini');
    expect(protocolOfPath('/v1/models/gpt-4o')).toBe('openai');
  });

  it('renders each provider shape', () => {
    expect(renderProtocolError('openai', 401, ErrorCode.InvalidApiKey, 'bad key')).toEqual({
      error: { message: 'bad key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
    expect(renderProtocolError('anthropic', 402, ErrorCode.InsufficientQuota, 'no money')).toEqual({
      type: 'error',
      error: { type: 'billing_error', message: 'no money' },
    });
    expect(renderProtocolError('gemini', 429, ErrorCode.RateLimited, 'slow down')).toEqual({
      error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' },
    });
  });

  it.each([
    [ErrorCode.RateLimited, 'rate_limit_error', 'rate_limit_exceeded'],
    [ErrorCode.InvalidApiKey, 'invalid_request_error', 'invalid_api_key'],
    [ErrorCode.InsufficientQuota, 'insufficient_quota', 'insufficient_quota'],
    [ErrorCode.ModelNotFound, 'invalid_request_error', 'model_not_found'],
    [ErrorCode.ContextLengthExceeded, 'invalid_request_error', 'context_length_exceeded'],
    [ErrorCode.ValidationFailed, 'invalid_request_error', 'validation_failed'],
    [ErrorCode.NoChannelAvailable, 'server_error', 'no_channel_available'],
  ])("tells an OpenAI client %s with OpenAI's type %s and code %s", (code, type, openaiCode) => {
    expect(renderProtocolError('openai', ERROR_STATUS[code], code, 'm')).toEqual({
      error: { message: 'm', type, param: null, code: openaiCode },
    });
  });

  it("names the field at fault as OpenAI's param, and nowhere else", () => {
    const param = 'messages[1].content';
    expect(renderProtocolError('openai', 400, ErrorCode.ValidationFailed, 'bad', param)).toMatchObject({
      error: { param: 'messages[1].content', code: 'validation_failed' },
    });
    expect(renderProtocolError('anthropic', 400, ErrorCode.ValidationFailed, 'bad', param)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'bad' },
    });
  });

  it('keeps the Anthropic and Gemini shapes of the OpenAI-spelled codes', () => {
    expect(renderProtocolError('anthropic', 429, ErrorCode.RateLimited, 'slow')).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow' },
    });
    expect(
      renderProtocolError('anthropic', 400, ErrorCode.ContextLengthExceeded, 'prompt is too long'),
    ).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long' },
    });
    expect(renderProtocolError('gemini', 400, ErrorCode.ContextLengthExceeded, 'too many tokens')).toEqual({
      error: { code: 400, message: 'too many tokens', status: 'INVALID_ARGUMENT' },
    });
  });

  it("follows the status for an upstream error passed on with the upstream's status", () => {
    expect(renderProtocolError('openai', 400, ErrorCode.UpstreamError, 'm')).toMatchObject({
      error: { type: 'invalid_request_error', code: 'upstream_error' },
    });
    expect(renderProtocolError('openai', 502, ErrorCode.UpstreamError, 'm')).toMatchObject({
      error: { type: 'server_error', code: 'upstream_error' },
    });
  });
});
