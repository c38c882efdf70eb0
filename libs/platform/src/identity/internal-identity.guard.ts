import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@tollgate/contracts';
import type { FastifyRequest } from 'fastify';
import { AppException } from '../errors/app.exception';
import { assertUnreachable } from '../errors/assert-unreachable';
import { accessException } from '../i18n/access-messages';
import { localeOfHeaders } from '../i18n/locale';
import { MINIMUM_ROLE, PUBLIC_ROUTE } from './identity.decorators';
import { INTERNAL_IDENTITY_HEADER, InvalidInternalTokenError, verifyInternalToken } from './internal-token';
import { attachIdentity } from './request-identity';
import { hasRole, type Role } from './role';
import type { Identity } from './identity';

export const INTERNAL_TOKEN_SECRET = Symbol('tollgate:internal-token-secret');

/** What a route demands: nothing, or a verified caller with at least some role. */
type Access = { kind: 'public' } | { kind: 'identified'; minimum?: Role };

/**
 * Services trust only the gateway: every route needs its signed identity token unless marked @Public().
 * A method's own @Public() or @Roles() wins over its controller's. On public routes a valid token is
 * still read, so handlers can tell a signed-in caller apart.
 */
@Injectable()
export class InternalIdentityGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(INTERNAL_TOKEN_SECRET) private readonly secret: string,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const access = this.accessOf(context.getHandler()) ??
      this.accessOf(context.getClass()) ?? { kind: 'identified' };
    const request = context.switchToHttp().getRequest<FastifyRequest>();

    const identity = await this.identityFrom(request, access.kind === 'public');
    if (identity) attachIdentity(request, identity);
    switch (access.kind) {
      case 'public':
        return true;
      case 'identified':
        if (!identity) {
          throw accessException(
            ErrorCode.Unauthenticated,
            'authentication_required',
            localeOfHeaders(request.headers),
          );
        }
        if (access.minimum !== undefined && !hasRole(identity.role, access.minimum)) {
          throw accessException(
            ErrorCode.Forbidden,
            'insufficient_permissions',
            localeOfHeaders(request.headers),
          );
        }
        return true;
      default:
        return assertUnreachable(access, 'route access');
    }
  }

  private accessOf(target: Parameters<Reflector['get']>[1]): Access | undefined {
    if (this.reflector.get<boolean | undefined>(PUBLIC_ROUTE, target) === true) return { kind: 'public' };
    const minimum = this.reflector.get<Role | undefined>(MINIMUM_ROLE, target);
    return minimum === undefined ? undefined : { kind: 'identified', minimum };
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
