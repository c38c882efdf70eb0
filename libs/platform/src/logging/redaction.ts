/**
 * The one list of log fields whose values never reach a log line: credentials, and request or response
 * content (prompts, completions, message bodies). Matched at any depth, ignoring case, `-` and `_`,
 * so `Authorization`, `api_key`, `apiKey` and `x-api-key` are all caught.
 */
export const REDACTED_FIELDS = [
  // credentials
  'authorization',
  'proxy-authorization',
  'cookie',
  'cookies',
  'set-cookie',
  'x-api-key',
  'x-goog-api-key',
  'x-tollgate-identity',
  'api-key',
  'key',
  'password',
  'new-password',
  'passwd',
  'token',
  'access-token',
  'refresh-token',
  'id-token',
  'secret',
  'secrets',
  'client-secret',
  'private-key',
  'signature',
  // request and response content
  'body',
  'raw-body',
  'request-body',
  'response-body',
  'payload',
  'messages',
  'prompt',
  'input',
  'contents',
  'content',
  'system',
  'instructions',
  'completion',
  'choices',
  'candidates',
] as const;

export const REDACTION_CENSOR = '[REDACTED]';
/** Deeper structures are not walked; their place is marked instead of risking an unredacted value. */
const MAX_DEPTH = 8;
const TRUNCATED = '[Truncated]';

const normalise = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');
const REDACTED = new Set<string>(REDACTED_FIELDS.map(normalise));

export const isRedactedField = (key: string): boolean => REDACTED.has(normalise(key));

/** Dates, buffers, URLs… serialise themselves and hold no fields of ours. */
const serialisesItself = (value: object): boolean =>
  typeof (value as { toJSON?: unknown }).toJSON === 'function';

/** Errors keep what tells what went wrong; their own enumerable fields go through redaction like any object. */
const errorFields = (error: Error): Record<string, unknown> => ({
  type: error.name,
  message: error.message,
  stack: error.stack,
  ...(error.cause === undefined ? {} : { cause: error.cause }),
  ...Object.fromEntries(Object.entries(error)),
});

const CIRCULAR = '[Circular]';

/**
 * A copy of `value` with every redacted field's value censored; parts without such fields are returned as
 * they are, so a log line costs no copying unless it has something to hide.
 */
export const redact = (value: unknown): unknown => walk(value, 0, new Set());

const walk = (value: unknown, depth: number, ancestors: Set<object>): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return TRUNCATED;
  if (ancestors.has(value)) return CIRCULAR;
  if (value instanceof Error) return walk(errorFields(value), depth, ancestors);
  if (value instanceof Map) return walk(Object.fromEntries(value), depth, ancestors);
  if (serialisesItself(value)) return value;
  ancestors.add(value);
  try {
    return Array.isArray(value) ? walkArray(value, depth, ancestors) : walkObject(value, depth, ancestors);
  } finally {
    ancestors.delete(value);
  }
};

const walkArray = (value: unknown[], depth: number, ancestors: Set<object>): unknown[] => {
  let copy: unknown[] | undefined;
  value.forEach((item, index) => {
    const redacted = walk(item, depth + 1, ancestors);
    if (redacted !== item) (copy ??= value.slice())[index] = redacted;
  });
  return copy ?? value;
};

const walkObject = (value: object, depth: number, ancestors: Set<object>): object => {
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const redacted = isRedactedField(key) ? REDACTION_CENSOR : walk(item, depth + 1, ancestors);
    if (redacted !== item) (copy ??= { ...value })[key] = redacted;
  }
  return copy ?? value;
};
