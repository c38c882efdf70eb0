import {
  AUTH_MESSAGE_KEYS,
  loginRequestSchema,
  registerRequestSchema,
  verificationQuerySchema,
} from '@tollgate/contracts';
import { AppException, type Locale } from '@tollgate/platform';
import { message } from './auth-messages';
import { parseRequest } from './parse-request';

const valid = {
  username: 'alice_01',
  email: 'Alice.Smith@Example.com',
  password: 'password-8',
  verification_code: '123456',
  agree_to_terms: true,
  agree_to_data_processing: true,
};

const refusal = (input: unknown, locale: Locale = 'ru'): string => {
  try {
    parseRequest(registerRequestSchema, input, locale, 'register_fields_required');
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).getStatus()).toBe(400);
    return (error as AppException).message;
  }
  throw new Error('the request was accepted');
};

describe('registration validation', () => {
  it('accepts a complete request and stores the address in lower case', () => {
    expect(parseRequest(registerRequestSchema, valid, 'ru', 'register_fields_required')).toMatchObject({
      username: 'alice_01',
      email: 'alice.smith@example.com',
    });
  });

  it.each([
    [
      'missing username',
      { username: undefined },
      'Пожалуйста, введите имя пользователя, email, пароль и подтверждение пароля',
    ],
    [
      'blank email',
      { email: '   ' },
      'Пожалуйста, введите имя пользователя, email, пароль и подтверждение пароля',
    ],
    ['email without a top level', { email: 'a@b' }, 'Пожалуйста, введите корректный email'],
    ['email with a 5-letter top level', { email: 'a@b.abcde' }, 'Пожалуйста, введите корректный email'],
    ['7-character password', { password: '1234567' }, 'Пароль должен быть не менее 8 символов'],
    ['23-character password', { password: 'a'.repeat(23) }, 'Пароль должен быть не более 22 символов'],
    [
      'password with a control character',
      { password: 'abcd\u0007efgh' },
      'Пароль содержит недопустимые символы',
    ],
    [
      'terms not accepted',
      { agree_to_terms: false },
      'Для завершения регистрации необходимо принять Оферту, Правила и Политику сервиса',
    ],
    [
      'terms as a string',
      { agree_to_terms: 'true' },
      'Для завершения регистрации необходимо принять Оферту, Правила и Политику сервиса',
    ],
    [
      'no data-processing consent',
      { agree_to_data_processing: undefined },
      'Для завершения регистрации необходимо согласие на обработку персональных данных',
    ],
    [
      'markup in the username',
      { username: '<img src=x>' },
      'Имя пользователя: не более 20 символов — буквы, цифры, «_», «-» и «.»',
    ],
    [
      '21-character username',
      { username: 'a'.repeat(21) },
      'Имя пользователя: не более 20 символов — буквы, цифры, «_», «-» и «.»',
    ],
  ])('refuses a %s with its message', (_case, change, expected) => {
    expect(refusal({ ...valid, ...change })).toBe(expected);
  });

  it('names the first problem in the order the form checks them', () => {
    expect(refusal({ ...valid, username: '', password: '1' })).toBe(
      message('register_fields_required', 'ru'),
    );
    expect(refusal({ ...valid, agree_to_terms: false, password: '1' })).toBe(message('terms_required', 'ru'));
    expect(refusal({ ...valid, agree_to_terms: false, agree_to_data_processing: false })).toBe(
      message('terms_required', 'ru'),
    );
  });

  it('answers a body that is no object as missing fields', () => {
    for (const body of [null, undefined, 'text', 42, [valid]]) {
      expect(refusal(body)).toBe(message('register_fields_required', 'ru'));
    }
  });

  it('answers in English when asked', () => {
    expect(refusal({ ...valid, password: 'short' }, 'en')).toBe(
      'The password must be at least 8 characters long',
    );
  });
});

describe('login and verification validation', () => {
  it('asks for both fields', () => {
    expect(() => parseRequest(loginRequestSchema, { username: 'a' }, 'ru', 'login_fields_required')).toThrow(
      'Пожалуйста, введите имя пользователя и пароль',
    );
  });

  it('asks for the address of a code request, then for a valid one', () => {
    expect(() => parseRequest(verificationQuerySchema, {}, 'ru', 'email_required')).toThrow(
      'Пожалуйста, введите email',
    );
    expect(() => parseRequest(verificationQuerySchema, { email: 'x' }, 'en', 'email_required')).toThrow(
      'Please enter a valid email',
    );
  });
});

describe('message', () => {
  it('has every key in both languages, and fills placeholders', () => {
    for (const key of AUTH_MESSAGE_KEYS) {
      expect(message(key, 'ru')).not.toBe('');
      expect(message(key, 'en')).not.toBe('');
    }
    expect(message('login_rate_limited', 'ru', { seconds: 12 })).toBe(
      'Слишком много попыток входа. Попробуйте снова через 12 с',
    );
  });
});
