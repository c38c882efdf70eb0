// Not the library's index, which loads MikroORM's ORM, knex and the migrator: a thread whose services have
// no database (embedded mode's main thread) would hold them for this one function.
import { isInfrastructureUnavailable } from '@tollgate/persistence/errors';
import type { ZodError, ZodType, ZodTypeDef } from 'zod';

// What every event consumer's subscription applies (EventBusTransport subscribes with these).

/**
 * A bus `decode` that accepts what matches `schema` and throws for anything else, so the bus
 * dead-letters that record at once.
 */
export function decodeWithSchema<T>(schema: ZodType<T, ZodTypeDef, unknown>): (value: unknown) => T {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new MalformedEventError(parsed.error);
    return parsed.data;
  };
}

/**
 * The bus's `isTransient` for a consumer: the infrastructure being away always passes (retried for
 * as long as the consumer runs, never dead-lettered); the consumer's own rule only widens that.
 */
export function failureRule(isTransient?: (error: unknown) => boolean): (error: unknown) => boolean {
  return (error) => isInfrastructureUnavailable(error) || (isTransient?.(error) ?? false);
}

/**
 * Names each failing field and what was wrong with it, never what it held: the message is logged
 * and a record may carry user data (zod's own messages quote values for enums and literals).
 */
export class MalformedEventError extends Error {
  constructor(error: ZodError) {
    const issues = error.issues.map((issue) => {
      const at = issue.path.length > 0 ? issue.path.join('.') : '(value)';
      const types =
        issue.code === 'invalid_type' ? ` (expected ${issue.expected}, got ${issue.received})` : '';
      return `${at}: ${issue.code}${types}`;
    });
    super(`does not match its schema: ${issues.join('; ')}`);
    this.name = 'MalformedEventError';
  }
}
