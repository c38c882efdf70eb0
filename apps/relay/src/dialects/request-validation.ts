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
  const path = issue?.path ?? [];
  const where = path.length === 0 ? 'body' : path.join('.');
  throw new RelayError(
    ErrorCode.ValidationFailed,
    `Invalid request: ${where}: ${issue?.message ?? 'invalid'}`,
    undefined,
    undefined,
    path.length === 0 ? undefined : paramOf(path),
  );
}

/** A field's path as OpenAI's `param` spells it: `messages[1].content`. */
export function paramOf(path: readonly (string | number)[]): string {
  let param = '';
  for (const step of path) {
    if (typeof step === 'number') param += `[${step}]`;
    else param += param === '' ? step : `.${step}`;
  }
  return param;
}
