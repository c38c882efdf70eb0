import { UniqueConstraintViolationException } from '@mikro-orm/core';

const UNIQUE_VIOLATION = '23505';

/** True for a unique/primary-key violation, whether MikroORM wrapped it or `pg` raised it raw. */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof UniqueConstraintViolationException) return true;
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}
