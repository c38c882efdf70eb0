import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@tollgate/contracts';
import type { FastifyRequest } from 'fastify';
import type { BaseServiceConfig } from '../config/base-service-config';
import { InjectServiceConfig } from '../app/platform.tokens';
import { AppException } from '../errors/app.exception';
import { Public } from '../identity/identity.decorators';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from './service-token';

const SERVICE_AUDIENCE = 'tollgate:service-audience';

@Injectable()
export class ServiceTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @InjectServiceConfig() private readonly config: BaseServiceConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const audience = this.reflector.getAllAndOverride<string | undefined>(SERVICE_AUDIENCE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const token = context.switchToHttp().getRequest<FastifyRequest>().headers[SERVICE_TOKEN_HEADER];
    if (!audience || typeof token !== 'string' || token === '') throw refusal();
    try {
      await verifyServiceToken(token, this.config.TOLLGATE_INTERNAL_TOKEN_SECRET, audience);
      return true;
    } catch {
      throw refusal();
    }
  }
}

const refusal = (): AppException =>
  new AppException(ErrorCode.Unauthenticated, 'A valid service token is required');

/**
 * An internal route that only other services may call, each with a service token for `audience`
 * (no user identity is involved, so the identity guard lets it through).
 */
export const ServiceOnly = (audience: string): MethodDecorator & ClassDecorator =>
  applyDecorators(Public(), SetMetadata(SERVICE_AUDIENCE, audience), UseGuards(ServiceTokenGuard));
