import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@tollgate/contracts';
import type { FastifyRequest } from 'fastify';
import { AppException } from '../errors/app.exception';
import { MINIMUM_ROLE, PUBLIC_ROUTE } from './identity.decorators';
import { INTERNAL_IDENTITY_HEADER, InvalidInternalTokenError, verifyInternalToken } from './internal-token';
import { attachIdentity } from './request-identity';
import { hasRole, type Role } from './role';
import type { Identity } from './identity';

export const INTERNAL_TOKEN_SECRET = Symbol('tollgate:internal-token-secret');

/**
 * Services trust only the gateway: every route needs its signed identity token unless marked @Public().
 * On public routes a valid token is still read, so handlers can tell a signed-in caller apart;
 * @Roles() always requires one.
 */
@Injectable()
export class InternalIdentityGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(INTERNAL_TOKEN_SECRET) private readonly secret: string,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, targets) === true;
    const minimum = this.reflector.getAllAndOverride<Role | undefined>(MINIMUM_ROLE, targets);
    const request = context.switchToHttp().getRequest<FastifyRequest>();

    const identity = await this.identityFrom(request, isPublic && minimum === undefined);
    if (identity) attachIdentity(request, identity);
    if (isPublic && minimum === undefined) return true;
    if (!identity) throw new AppException(ErrorCode.Unauthenticated, 'Authentication required');
    if (minimum !== undefined && !hasRole(identity.role, minimum)) {
      throw new AppException(ErrorCode.Forbidden, 'Insufficient permissions');
    }
    return true;
  }

  private async identityFrom(request: FastifyRequest, isPublic: boolean): Promise<Identity | undefined> {
    const token = request.headers[INTERNAL_IDENTITY_HEADER];
    if (typeof token !== 'string' || token === '') return undefined;
    try {
      return await verifyInternalToken(token, this.secret);
    } catch (error) {
      if (!(error instanceof InvalidInternalTokenError)) throw error;
      if (isPublic) return undefined;
      throw new AppException(ErrorCode.Unauthenticated, error.message);
    }
  }
}
