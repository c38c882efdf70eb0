import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';

/** Gives each HTTP request its own identity map: the injected EntityManager resolves to it. */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  constructor(@Inject(MikroORM) private readonly orm: MikroORM) {}

  use(_request: unknown, _response: unknown, next: () => void): void {
    RequestContext.create(this.orm.em, next);
  }
}
