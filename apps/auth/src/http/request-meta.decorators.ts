import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The client's address as the gateway saw it: services trust the X-Forwarded-For the gateway sets
 * (Fastify's trustProxy), and only the gateway can reach them.
 */
export const ClientIp = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>().ip,
);

/** Whether the client reached the gateway over TLS (X-Forwarded-Proto), so cookies get `Secure`. */
export const OverHttps = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<FastifyRequest>().protocol === 'https',
);
