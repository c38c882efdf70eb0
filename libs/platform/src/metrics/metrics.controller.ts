import { Controller, Get, Header, Res, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { InjectServiceConfig } from '../app/platform.tokens';
import { Public } from '../identity/identity.decorators';
import { MetricsService } from './metrics.service';

@Public()
@Controller('metrics')
export class MetricsController implements OnModuleDestroy {
  /** Takes the service's filing by port back (embedded mode's launcher finds the services so). */
  private readonly unregister: () => void;

  constructor(
    private readonly metrics: MetricsService,
    @InjectServiceConfig() config: { PORT?: unknown },
  ) {
    const port = config.PORT;
    this.unregister =
      typeof port === 'number' && port > 0 ? MetricsService.register(port, metrics) : () => undefined;
  }

  @Get()
  @Header('cache-control', 'no-store')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.type(this.metrics.contentType);
    return this.metrics.render();
  }

  onModuleDestroy(): void {
    this.unregister();
  }
}
