import { logLevel, type logCreator } from 'kafkajs';
import type { EventBusLogger } from '../shared/logger';

/** Routes kafkajs' own log lines to the bus logger. */
export function kafkaLogCreator(logger: EventBusLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...context } = log;
      const entry = { namespace, ...context };
      if (level === logLevel.ERROR) logger.error(`kafkajs: ${message}`, entry);
      else if (level === logLevel.WARN) logger.warn(`kafkajs: ${message}`, entry);
      else logger.info(`kafkajs: ${message}`, entry);
    };
}
