import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { localeOfHeaders } from './locale';

/** The caller's language, for the messages of the answer. */
export const RequestLocale = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  localeOfHeaders(context.switchToHttp().getRequest<FastifyRequest>().headers),
);
