import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { isUniqueViolation } from './database-errors';

function driverError(code: string): Error & { code: string } {
  return Object.assign(new Error(`sql error ${code}`), { code });
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
