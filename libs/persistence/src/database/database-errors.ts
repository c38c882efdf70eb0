import { ConnectionException, UniqueConstraintViolationException } from '@mikro-orm/core';

const UNIQUE_VIOLATION = '23505';

/** True for a unique/primary-key violation, whether MikroORM wrapped it or `pg` raised it raw. */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof UniqueConstraintViolationException) return true;
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}

/** Socket errors of a server that is down, restarting or unreachable (Node's `error.code`). */
const NETWORK_AWAY = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a server that is away or cannot take the connection now: class 08 (connection
 * exception), 57P01–57P05 (shut down, crashed, starting up, database dropped, idle timeout), 53300
 * (too many connections).
 */
const SQLSTATE_AWAY = /^(08[0-9A-Z]{3}|57P0[0-9]|53300)$/;
/**
 * What `pg` and knex say without a code, as MikroORM passes them on (its DriverException keeps the
 * message, prefixed with the query, and drops the original class name).
 */
const MESSAGE_AWAY =
  /(^|- )Connection terminated|Timeout acquiring a connection|Client has encountered a connection error/;

/**
 * True when `error` says the infrastructure is away (the database, or another server reached over
 * the network), not that the operation is wrong: retrying the same work later can succeed. Looks
 * through `cause` chains (fetch's "fetch failed") and AggregateError's `errors` (a connection tried
 * on several addresses).
 */
export function isInfrastructureUnavailable(error: unknown): boolean {
  return saysUnavailable(error, 0);
}

function saysUnavailable(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  if (error instanceof ConnectionException) return true;
  if ('name' in error && error.name === 'KnexTimeoutError') return true;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && (NETWORK_AWAY.has(code) || SQLSTATE_AWAY.test(code))) return true;
  if ('message' in error && typeof error.message === 'string' && MESSAGE_AWAY.test(error.message))
    return true;
  if ('cause' in error && saysUnavailable(error.cause, depth + 1)) return true;
  return error instanceof AggregateError && error.errors.some((e) => saysUnavailable(e, depth + 1));
}
