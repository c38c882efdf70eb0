import type { EventBusLogger } from '@tollgate/events';
import { createLogger, LOG_LEVELS, type LogLevel } from '@tollgate/platform';

/** The event bus logs through a pino logger (JSON, redaction) like the rest of the service. */
export function busLoggerFor(service: string, level: string | undefined): EventBusLogger {
  const chosen = (LOG_LEVELS as readonly string[]).includes(level ?? '') ? (level as LogLevel) : 'info';
  const logger = createLogger({ service, level: chosen }).child({ component: 'events' });
  return {
    info: (message, context) => logger.info(context ?? {}, message),
    warn: (message, context) => logger.warn(context ?? {}, message),
    error: (message, context) => logger.error(context ?? {}, message),
  };
}
