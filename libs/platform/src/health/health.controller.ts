import { Controller, Get, Header, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../identity/identity.decorators';
import { HealthRegistry, type ReadinessFailure } from './health.registry';

export type LivenessAnswer = { status: 'ok' };
export type ReadinessAnswer =
  | { status: 'ok'; checks: readonly string[] }
  | { status: 'unavailable'; failures: readonly ReadinessFailure[] };

@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthRegistry) {}

  /** The process answers: nothing else is checked, so a slow dependency never gets it restarted. */
  @Get()
  @Header('cache-control', 'no-store')
  liveness(): LivenessAnswer {
    return { status: 'ok' };
  }

  @Get('ready')
  @Header('cache-control', 'no-store')
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessAnswer> {
    const report = await this.health.readiness();
    if (report.ready) return { status: 'ok', checks: report.checks };
    void reply.status(503);
    return { status: 'unavailable', failures: report.failures };
  }
}
