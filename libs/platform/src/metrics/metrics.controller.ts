import { Controller, Get, Header, Req, Res, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InjectServiceConfig } from '../app/platform.tokens';
import { Public } from '../identity/identity.decorators';
import { isNonPublicAddress } from '../security/network-ranges';
import { MetricsService } from './metrics.service';

/**
 * Embedded mode's gateway serves every service's series (revenue, users, channels) only to a scraper
 * that reaches it directly from a loopback or private address: PORT is the port clients use, and a
 * request a proxy forwarded (from anywhere) gets the gateway's own series, as a distributed gateway does.
 */
const scrapedFromInside = (request: FastifyRequest): boolean =>
  request.headers['x-forwarded-for'] === undefined &&
  request.headers.forwarded === undefined &&
  isNonPublicAddress(request.socket.remoteAddress);

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
  async scrape(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    void reply.type(this.metrics.contentType);
    return this.metrics.render({ everyService: scrapedFromInside(request) });
  }

  onModuleDestroy(): void {
    this.unregister();
  }
}
