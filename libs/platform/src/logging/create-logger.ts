import { hostname } from 'node:os';
import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { currentRequestContext } from '../context/request-context';
import { redact } from './redaction';

export type { Logger } from 'pino';
export type LogLevel = LevelWithSilent;
export const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const satisfies readonly LogLevel[];

export interface CreateLoggerOptions {
  service: string;
  level: LogLevel;
  /** Where lines go; stdout when omitted. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

/** Ties each line to the request, caller and trace it was written for. */
const contextFields = (): Record<string, unknown> => {
  const fields: Record<string, unknown> = {};
  const context = currentRequestContext();
  if (context) {
    fields['requestId'] = context.requestId;
    if (context.correlationId !== context.requestId) fields['correlationId'] = context.correlationId;
    if (context.identity) fields['userId'] = context.identity.userId;
  }
  const span = trace.getActiveSpan()?.spanContext();
  if (span && trace.isSpanContextValid(span)) fields['traceId'] = span.traceId;
  return fields;
};

/** A JSON logger whose fields and child bindings go through the central redaction list. */
export const createLogger = ({ service, level, destination }: CreateLoggerOptions): Logger => {
  const options: pino.LoggerOptions = {
    level,
    base: { service, pid: process.pid, hostname: hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    mixin: contextFields,
    formatters: {
      level: (label) => ({ level: label }),
      log: (fields) => redact(fields) as Record<string, unknown>,
    },
    // redact() has already turned errors into plain, redacted objects; pino's serializer would re-type them.
    serializers: { err: (error: unknown) => error },
  };
  return redactChildBindings(destination ? pino(options, destination) : pino(options));
};

/**
 * pino serialises a child's bindings once, without the log formatter. Children are created from their
 * parent with Object.create, so overriding `child` on the root covers every descendant.
 */
const redactChildBindings = (logger: Logger): Logger => {
  const child = logger.child;
  const redactingChild = function (
    this: unknown,
    bindings: pino.Bindings,
    options?: pino.ChildLoggerOptions,
  ): Logger {
    return Reflect.apply(child, this, [redact(bindings), options]) as Logger;
  };
  logger.child = redactingChild as unknown as Logger['child'];
  return logger;
};
