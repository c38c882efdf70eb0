/** The little the bus needs from a logger; pino's child loggers fit behind a two-line adapter. */
export interface EventBusLogger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

export const consoleEventBusLogger: EventBusLogger = {
  info: (message, context) => console.info(`[events] ${message}`, context ?? ''),
  warn: (message, context) => console.warn(`[events] ${message}`, context ?? ''),
  error: (message, context) => console.error(`[events] ${message}`, context ?? ''),
};

export const silentEventBusLogger: EventBusLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
