import { AUTH_MESSAGE_KEYS, ErrorCode, isAuthMessageKey, type AuthMessageKey } from '@tollgate/contracts';
import type { z } from 'zod';
import type { Locale } from '@tollgate/platform';
import { localizedException } from './localized-exception';

/**
 * Of several problems, the one a person filling the form in should hear about first. A problem
 * without a message key (the body is not an object at all) counts as `missing`.
 */
export function firstProblem(error: z.ZodError, missing: AuthMessageKey): AuthMessageKey {
  const keys = error.issues.map((issue) =>
    issue.path.length > 0 && isAuthMessageKey(issue.message) ? issue.message : missing,
  );
  return keys.reduce((first, key) =>
    AUTH_MESSAGE_KEYS.indexOf(key) < AUTH_MESSAGE_KEYS.indexOf(first) ? key : first,
  );
}

/**
 * Parses a request body or query against a contracts schema; on failure throws a 400 with the
 * first problem's message in the caller's language.
 */
export function parseRequest<S extends z.ZodTypeAny>(
  schema: S,
  input: unknown,
  locale: Locale,
  missing: AuthMessageKey,
): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data as z.output<S>;
  throw localizedException(ErrorCode.ValidationFailed, firstProblem(parsed.error, missing), locale);
}
