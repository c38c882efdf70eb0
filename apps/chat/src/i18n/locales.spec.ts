import { localeFromAcceptLanguage, messageTableProblems } from '@tollgate/platform';
import { CHAT_MESSAGE_KEYS, MESSAGES, message } from './messages';

describe('chat locale files', () => {
  it('have every message key and no other, each with a text and the same placeholders', () => {
    expect(messageTableProblems(MESSAGES, CHAT_MESSAGE_KEYS)).toEqual([]);
  });

  it('answer in Russian without Accept-Language and in English for an English caller', () => {
    expect(message('model_not_offered', localeFromAcceptLanguage(undefined), { model: 'gpt-4o' })).toBe(
      'Модель gpt-4o недоступна в чате',
    );
    expect(
      message('model_not_offered', localeFromAcceptLanguage('en-US,en;q=0.9'), { model: 'gpt-4o' }),
    ).toBe('The model gpt-4o is not offered in the chat');
  });
});
