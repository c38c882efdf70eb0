import { v7 as timeOrderedUuid } from 'uuid';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

/** Ids from outside are echoed and logged, so only short, plain tokens are taken over. */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Time-ordered, so that the usage log's index by user and request takes each new row at its end. */
export const generateRequestId = (): string => timeOrderedUuid();

/** The header's value when it is one sane id, else undefined (arrays, empty, odd characters, too long). */
export const saneId = (value: unknown): string | undefined =>
  typeof value === 'string' && SANE_ID.test(value) ? value : undefined;
