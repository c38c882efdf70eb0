import {
  assertIdentifier,
  redactUrl,
  schemaOf,
  withDatabase,
  withSchema,
  withoutSchema,
} from './database-url';

const URL_WITH_PASSWORD = 'postgres://app:secret@127.0.0.1:5432/billing';

describe('database URLs', () => {
  it('reads no schema from a plain URL', () => {
    expect(schemaOf(URL_WITH_PASSWORD)).toBeUndefined();
  });

  it('round-trips a schema through the URL and removes it again', () => {
    const withIt = withSchema(URL_WITH_PASSWORD, 'test_ab12');
    expect(schemaOf(withIt)).toBe('test_ab12');
    expect(withoutSchema(withIt)).toBe(URL_WITH_PASSWORD);
  });

  it('refuses schema and database names that are not plain identifiers', () => {
    expect(() => withSchema(URL_WITH_PASSWORD, 'x"; drop table users; --')).toThrow(/Schema/);
    expect(() => schemaOf(`${URL_WITH_PASSWORD}?schema=Upper`)).toThrow(/Schema "Upper"/);
    expect(() => assertIdentifier('a'.repeat(64), 'Database')).toThrow(/Database/);
  });

  it('swaps the database and keeps credentials and host', () => {
    expect(withDatabase(URL_WITH_PASSWORD, 'tollgate_test_1')).toBe(
      'postgres://app:secret@127.0.0.1:5432/tollgate_test_1',
    );
  });

  it('hides the password when redacting', () => {
    expect(redactUrl(URL_WITH_PASSWORD)).toBe('postgres://app:***@127.0.0.1:5432/billing');
  });
});
