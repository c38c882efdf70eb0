import { ErrorCode } from '@tollgate/contracts';
import { AppException } from '../errors/app.exception';
import { ACCESS_MESSAGE_KEYS, ACCESS_MESSAGES } from './access-messages';
import { localeOfHeaders } from './locale';
import { localizedExceptions } from './localized-exception';
import { messageTableProblems } from './message-table';

describe('localizedExceptions', () => {
  const localizedException = localizedExceptions<'wait'>({
    ru: { wait: 'Подождите {seconds} с' },
    en: { wait: 'Wait {seconds} s' },
  });

  it('builds the AppException of a code with the key’s text in the caller’s language', () => {
    const russian = localizedException(ErrorCode.RateLimited, 'wait', 'ru', { seconds: 5 });
    const english = localizedException(ErrorCode.RateLimited, 'wait', 'en', { seconds: 5 });
    expect(russian).toBeInstanceOf(AppException);
    expect([russian.code, russian.getStatus(), russian.message]).toEqual([
      ErrorCode.RateLimited,
      429,
      'Подождите 5 с',
    ]);
    expect(english.message).toBe('Wait 5 s');
  });

  it('carries the answer’s headers', () => {
    const error = localizedException(
      ErrorCode.RateLimited,
      'wait',
      'en',
      { seconds: 5 },
      {
        headers: { 'retry-after': '5' },
      },
    );
    expect(error.headers).toEqual({ 'retry-after': '5' });
  });
});

describe('the access refusals', () => {
  it('have a text for every key in both languages, with the same placeholders', () => {
    expect(messageTableProblems(ACCESS_MESSAGES, ACCESS_MESSAGE_KEYS)).toEqual([]);
  });

  it('keep the English texts clients already read', () => {
    expect(ACCESS_MESSAGES.en).toEqual({
      authentication_required: 'Authentication required',
      insufficient_permissions: 'Insufficient permissions',
      user_header_mismatch: 'New-Api-User does not match the signed-in user',
    });
  });
});

describe('localeOfHeaders', () => {
  it('reads Accept-Language, Russian when it is absent or repeated', () => {
    expect(localeOfHeaders({ 'accept-language': 'en' })).toBe('en');
    expect(localeOfHeaders({})).toBe('ru');
    expect(localeOfHeaders({ 'accept-language': ['en', 'en'] })).toBe('ru');
  });
});
