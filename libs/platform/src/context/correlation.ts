import { currentRequestContext, runWithRequestContext } from './request-context';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER, generateRequestId, saneId } from './request-id';

export type CorrelationHeaders = { [REQUEST_ID_HEADER]: string; [CORRELATION_ID_HEADER]: string };

/** Message headers as Kafka clients hand them over (kafkajs `IHeaders`) or as plain strings. */
export type IncomingHeaders = Record<string, string | Buffer | ReadonlyArray<string | Buffer> | undefined>;

/** Headers to put on an outgoing event or internal call so the flow can be followed; empty outside a context. */
export const currentCorrelationHeaders = (): CorrelationHeaders | Record<string, never> => {
  const context = currentRequestContext();
  if (!context) return {};
  return { [REQUEST_ID_HEADER]: context.requestId, [CORRELATION_ID_HEADER]: context.correlationId };
};

const headerText = (headers: IncomingHeaders, name: string): string | undefined => {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return undefined;
  return saneId(Buffer.isBuffer(first) ? first.toString('utf8') : first);
};

/** Runs a consumer's work in the context the producer's headers carry (fresh ids when they carry none). */
export const runWithCorrelation = <T>(headers: IncomingHeaders | undefined, fn: () => T): T => {
  const requestId = (headers && headerText(headers, REQUEST_ID_HEADER)) ?? generateRequestId();
  const correlationId = (headers && headerText(headers, CORRELATION_ID_HEADER)) ?? requestId;
  return runWithRequestContext({ requestId, correlationId }, fn);
};
