import { AUTH_MESSAGE_KEYS } from '@tollgate/contracts';
import { messageTableProblems } from '@tollgate/platform';
import { MESSAGES } from './auth-messages';

describe('auth locale files', () => {
  it('have every contract message key and no other, each with a text and the same placeholders', () => {
    expect(messageTableProblems(MESSAGES, AUTH_MESSAGE_KEYS)).toEqual([]);
  });
});
