/**
 * Database URLs are `postgres://user:password@host:port/database`, optionally with
 * `?schema=name` to keep every table of the service in that schema (MikroORM reads the same
 * parameter). PGlite serves a single database, so a schema is how several test files share it.
 */
const SCHEMA_PARAM = 'schema';
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Names that go into SQL unquoted-safe: lower-case letters, digits, underscores, ≤ 63 chars. */
export function assertIdentifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new Error(`${what} "${name}" must match ${IDENTIFIER.source}`);
  }
  return name;
}

export function schemaOf(url: string): string | undefined {
  const schema = new URL(url).searchParams.get(SCHEMA_PARAM);
  return schema === null ? undefined : assertIdentifier(schema, 'Schema');
}

export function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(SCHEMA_PARAM, assertIdentifier(schema, 'Schema'));
  return parsed.toString();
}

export function withoutSchema(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete(SCHEMA_PARAM);
  return parsed.toString();
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${assertIdentifier(database, 'Database')}`;
  return parsed.toString();
}

/** The URL without its password, for error messages and logs. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
