import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Nest's start-up chatter: useful when debugging, noise otherwise. */
const BOOTSTRAP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Routes Nest's own logs through pino. Nest calls `log(message, context?)` and `error(message, stack?,
 * context?)`; the trailing string is the context, a middle string on `error` the stack.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = this.contextOf(params);
    this.write(context !== undefined && BOOTSTRAP_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private contextOf(params: unknown[]): string | undefined {
    const last = params[params.length - 1];
    return typeof last === 'string' ? last : undefined;
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const context = this.contextOf(params);
    const rest = context === undefined ? params : params.slice(0, -1);
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields['context'] = context;
    const stack = rest.find((param): param is string => typeof param === 'string');
    if (stack !== undefined) fields['stack'] = stack;
    const error = [message, ...rest].find((param): param is Error => param instanceof Error);
    if (error) fields['err'] = error;
    if (typeof message === 'string') {
      this.logger[level](fields, message);
    } else if (message instanceof Error) {
      this.logger[level](fields, message.message);
    } else {
      this.logger[level]({ ...fields, detail: message });
    }
  }
}
