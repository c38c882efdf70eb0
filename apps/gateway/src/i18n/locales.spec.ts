import { messageTableProblems } from '@tollgate/platform';
import { GATEWAY_MESSAGE_KEYS, MESSAGES, gatewayMessage } from './messages';

describe('gateway locale files', () => {
  it('have every message key and no other, each with a text and the same placeholders', () => {
    expect(messageTableProblems(MESSAGES, GATEWAY_MESSAGE_KEYS)).toEqual([]);
  });

  it("word /api refusals in the caller's language and the model APIs' in English", () => {
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    const relay = { service: 'relay' };
    expect(gatewayMessage('service_unavailable', '/api/user/self', {}, relay)).toBe(
      'Сервис relay недоступен',
    );
    expect(gatewayMessage('service_unavailable', '/api/user/self', english, relay)).toBe(
      'The relay service is unavailable',
    );
    for (const path of ['/v1/chat/completions', '/v1', '/v1beta/models/gemini-2.5-flash:generateContent']) {
      expect(gatewayMessage('service_unavailable', path, { 'accept-language': 'ru' }, relay)).toBe(
        'The relay service is unavailable',
      );
    }
  });
});
