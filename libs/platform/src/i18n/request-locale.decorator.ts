import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { localeFromAcceptLanguage } from './locale';

/** The caller's language, for the messages of the answer. */
export const RequestLocale = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const header = context.switchToHttp().getRequest<FastifyRequest>().headers['accept-language'];
  return localeFromAcceptLanguage(typeof header === 'string' ? header : undefined);
});
