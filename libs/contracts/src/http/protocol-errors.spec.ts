import { ErrorCode } from './error-codes';
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
});
