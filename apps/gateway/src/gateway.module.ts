import { Module } from '@nestjs/common';

/**
 * The gateway has no Nest controllers of its own beyond the platform's /health and /metrics: its
 * routes are raw Fastify routes (gateway.routes.ts, their objects built in composition.ts) so that
 * bodies stream through unparsed.
 */
@Module({})
export class GatewayModule {}
