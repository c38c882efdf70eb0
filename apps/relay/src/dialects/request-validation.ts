import { ErrorCode } from '@tollgate/contracts';
import type { z } from 'zod';
import { RelayError } from '../errors/relay-error';

/** Parses a client body with a schema; the first problem, with its path, becomes a 400 for the client. */
export function parseClientBody<S extends z.ZodTypeAny>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data as z.output<S>;
  // A JSON body sent as text/plain reaches here as a string: say what to send instead.
  if (typeof body === 'string')
    throw new RelayError(
      ErrorCode.ValidationFailed,
      'Invalid request: the body came as text: send it as JSON with Content-Type: application/json',
    );
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.');
  throw new RelayError(
    ErrorCode.ValidationFailed,
    `Invalid request: ${where}: ${issue?.message ?? 'invalid'}`,
  );
}
