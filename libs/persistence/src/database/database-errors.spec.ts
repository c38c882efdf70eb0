import {
  ConnectionException,
  DeadlockException,
  DriverException,
  ForeignKeyConstraintViolationException,
  SyntaxErrorException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { isInfrastructureUnavailable, isUniqueViolation } from './database-errors';

function driverError(code: string): Error & { code: string } {
  return Object.assign(new Error(`sql error ${code}`), { code });
}

/** A Node socket error as `net` raises it (and `pg` passes it on unchanged). */
function socketError(code: string, message: string): Error {
  return Object.assign(new Error(message), { errno: -1, code, syscall: 'connect' });
}

/** A `pg` server error: the message and SQLSTATE PostgreSQL sent. */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

describe('isUniqueViolation', () => {
  it("recognises MikroORM's unique constraint exception", () => {
    expect(isUniqueViolation(new UniqueConstraintViolationException(driverError('23505')))).toBe(true);
  });

  it('recognises a raw pg error with SQLSTATE 23505', () => {
    expect(isUniqueViolation(driverError('23505'))).toBe(true);
  });

  it('rejects other constraint violations and non-errors', () => {
    expect(isUniqueViolation(new ForeignKeyConstraintViolationException(driverError('23503')))).toBe(false);
    expect(isUniqueViolation(new Error('boom'))).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});

// The shapes below are those MikroORM 6 on pg raises against a real server (test/integration/
// unavailable-errors.spec.ts produces them): MikroORM wraps the driver's error in a DriverException
// that copies its code and prefixes the query to its message.
describe('isInfrastructureUnavailable', () => {
  it.each([
    ['a refused connection', socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', socketError('ECONNRESET', 'read ECONNRESET')],
    ['a connection that timed out', socketError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.5:5432')],
    ['a write to a closed socket', socketError('EPIPE', 'write EPIPE')],
    ['a name that cannot be resolved for now', socketError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN postgres')],
  ])('is true for %s, raw or wrapped by MikroORM', (_, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(true);
    expect(isInfrastructureUnavailable(new DriverException(error))).toBe(true);
  });

  it.each([
    ['08006 (connection failure)', '08006', 'connection failure'],
    ['08P01 (protocol violation)', '08P01', 'unexpected message type'],
    [
      '57P01 (terminated by an administrator)',
      '57P01',
      'terminating connection due to administrator command',
    ],
    ['57P03 (the server is starting up)', '57P03', 'the database system is starting up'],
    ['53300 (too many connections)', '53300', 'too many connections for role "billing"'],
  ])('is true for SQLSTATE %s', (_, code, message) => {
    expect(isInfrastructureUnavailable(new DriverException(serverError(code, message)))).toBe(true);
  });

  it("is true for pg's and knex's code-less messages as MikroORM passes them on", () => {
    const terminated = new DriverException(new Error('Connection terminated unexpectedly'));
    const inQuery = new DriverException(new Error('select 1 - Connection terminated unexpectedly'));
    const poolTimeout = new DriverException(
      new Error(
        'Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?',
      ),
    );
    expect([terminated, inQuery, poolTimeout].map(isInfrastructureUnavailable)).toEqual([true, true, true]);
  });

  it("is true for MikroORM's ConnectionException and knex's own KnexTimeoutError", () => {
    expect(isInfrastructureUnavailable(new ConnectionException(new Error('connection lost')))).toBe(true);
    const knexTimeout = Object.assign(new Error('Knex: Timeout acquiring a connection.'), {
      name: 'KnexTimeoutError',
    });
    expect(isInfrastructureUnavailable(knexTimeout)).toBe(true);
  });

  it("looks through causes (fetch's 'fetch failed') and an AggregateError's errors", () => {
    const fetchFailed = new TypeError('fetch failed', {
      cause: socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8080'),
    });
    const everyAddress = new AggregateError([
      socketError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'),
      socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    ]);
    expect(isInfrastructureUnavailable(fetchFailed)).toBe(true);
    expect(isInfrastructureUnavailable(everyAddress)).toBe(true);
  });

  it('is false for a failure of the work itself, which retrying cannot mend', () => {
    const failures: unknown[] = [
      new UniqueConstraintViolationException(serverError('23505', 'duplicate key value')),
      new SyntaxErrorException(serverError('42601', 'syntax error at or near "selec"')),
      new DeadlockException(serverError('40P01', 'deadlock detected')),
      new DriverException(serverError('22003', 'numeric field overflow')),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new Error('does not match its schema: n: invalid_type (expected number, got string)'),
      new Error('select 1 - relation "accounts" does not exist'),
      new Error('a message that mentions ECONNREFUSED is not a socket error'),
      'ECONNREFUSED',
      null,
      undefined,
    ];
    expect(failures.filter(isInfrastructureUnavailable)).toEqual([]);
  });

  it('stops at a cause chain that loops', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isInfrastructureUnavailable(a)).toBe(false);
  });
});
