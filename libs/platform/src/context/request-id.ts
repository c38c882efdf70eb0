import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

/** Ids from outside are echoed and logged, so only short, plain tokens are taken over. */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export const generateRequestId = (): string => randomUUID();

/** The header's value when it is one sane id, else undefined (arrays, empty, odd characters, too long). */
export const saneId = (value: unknown): string | undefined =>
  typeof value === 'string' && SANE_ID.test(value) ? value : undefined;
