// Not the library's index, which loads MikroORM's ORM, knex and the migrator: a thread whose services have
// no database (embedded mode's main thread) would hold them for this one function.
import { isInfrastructureUnavailable } from '@tollgate/persistence/errors';
import type { ZodType, ZodTypeDef } from 'zod';
import type { ZodType as Zod4Type } from 'zod/v4';

/** A consumer's schema: zod 3's, or zod 4's (`zod/v4`: less CPU per record, bench/ANALYSIS.md h72). */
export type EventSchema<T> = ZodType<T, ZodTypeDef, unknown> | Zod4Type<T, unknown>;

// What every event consumer's subscription applies (EventBusTransport subscribes with these).

/**
 * A bus `decode` that accepts what matches `schema` and throws for anything else, so the bus
 * dead-letters that record at once.
 */
export function decodeWithSchema<T>(schema: EventSchema<T>): (value: unknown) => T {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new MalformedEventError(parsed.error.issues);
    return parsed.data as T;
  };
}

/**
 * The bus's `isTransient` for a consumer: the infrastructure being away always passes (retried for
 * as long as the consumer runs, never dead-lettered); the consumer's own rule only widens that.
 */
export function failureRule(isTransient?: (error: unknown) => boolean): (error: unknown) => boolean {
  return (error) => isInfrastructureUnavailable(error) || (isTransient?.(error) ?? false);
}

/** What zod 3 and zod 4 both say of a failing field (zod 4 does not name what it got). */
interface MalformedField {
  code: string;
  path: readonly PropertyKey[];
  expected?: unknown;
  received?: unknown;
}

/**
 * Names each failing field and what was wrong with it, never what it held: the message is logged
 * and a record may carry user data (zod's own messages quote values for enums and literals).
 */
export class MalformedEventError extends Error {
  constructor(issues: readonly MalformedField[]) {
    const named = issues.map((issue) => {
      const at = issue.path.length > 0 ? issue.path.join('.') : '(value)';
      const got = issue.received === undefined ? '' : `, got ${String(issue.received)}`;
      const types = issue.code === 'invalid_type' ? ` (expected ${String(issue.expected)}${got})` : '';
      return `${at}: ${issue.code}${types}`;
    });
    super(`does not match its schema: ${named.join('; ')}`);
    this.name = 'MalformedEventError';
  }
}
