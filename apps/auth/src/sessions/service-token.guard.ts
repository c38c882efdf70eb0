import { createSecretKey, type KeyObject } from 'node:crypto';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ErrorCode, SESSION_LOOKUP } from '@tollgate/contracts';
import { AppException, InjectServiceConfig } from '@tollgate/platform';
import type { FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import type { AuthConfig } from '../config';

/**
 * Only the gateway may resolve sessions: it proves itself with a short-lived JWT signed with the
 * platform's internal secret for this one audience. Unlike an identity token it names no user, so
 * a leaked one lets nobody act as anyone.
 */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  private readonly key: KeyObject;

  constructor(@InjectServiceConfig() config: AuthConfig) {
    this.key = createSecretKey(Buffer.from(config.TOLLGATE_INTERNAL_TOKEN_SECRET, 'utf8'));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const token = context.switchToHttp().getRequest<FastifyRequest>().headers[SESSION_LOOKUP.header];
    if (typeof token !== 'string' || token === '') throw this.refusal();
    try {
      await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: SESSION_LOOKUP.issuer,
        audience: SESSION_LOOKUP.audience,
        requiredClaims: ['exp', 'iat'],
        clockTolerance: 5,
      });
      return true;
    } catch {
      throw this.refusal();
    }
  }

  private refusal(): AppException {
    return new AppException(ErrorCode.Unauthenticated, 'A valid service token is required');
  }
}
