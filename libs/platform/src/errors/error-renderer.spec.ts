import { ErrorCode } from '@tollgate/contracts';
import { envelopeErrorRenderer, selectErrorRenderer, type ErrorRenderer } from './error-renderer';

const named = (name: string): ErrorRenderer => ({
  render: (error) => ({ status: error.status, body: { name } }),
});
const openai = named('openai');
const anthropic = named('anthropic');
const gemini = named('gemini');
const routes = [
  { prefix: '/v1', renderer: openai },
  { prefix: '/v1/messages', renderer: anthropic },
  { prefix: '/v1beta', renderer: gemini },
];

describe('selectErrorRenderer', () => {
  it('picks the longest prefix the path falls under, on segment boundaries', () => {
    expect(selectErrorRenderer(routes, '/v1/chat/completions')).toBe(openai);
    expect(selectErrorRenderer(routes, '/v1')).toBe(openai);
    expect(selectErrorRenderer(routes, '/v1/messages?beta=true')).toBe(anthropic);
    expect(selectErrorRenderer(routes, '/v1beta/models/gemini-pro:generateContent?key=abc')).toBe(gemini);
    expect(selectErrorRenderer(routes, '/v1messages')).toBe(envelopeErrorRenderer);
  });

  it('falls back to the envelope', () => {
    expect(selectErrorRenderer(routes, '/api/user/self')).toBe(envelopeErrorRenderer);
    expect(selectErrorRenderer([], '/v1/models')).toBe(envelopeErrorRenderer);
  });
});

describe('envelopeErrorRenderer', () => {
  it('answers {success:false, message} with the status', () => {
    expect(
      envelopeErrorRenderer.render({ code: ErrorCode.Forbidden, status: 403, message: 'No access' }),
    ).toEqual({
      status: 403,
      body: { success: false, message: 'No access' },
    });
  });
});
