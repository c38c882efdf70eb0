import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import type { FastifyRequest } from 'fastify';
import { accessException } from '../i18n/access-messages';
import { localeOfHeaders } from '../i18n/locale';
import { identityOf } from './request-identity';
import type { Role } from './role';

export const PUBLIC_ROUTE = 'tollgate:public';
export const MINIMUM_ROLE = 'tollgate:minimum-role';

/** The route (or every route of the controller) answers without an internal identity token. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The caller's role must be at least `minimum` (admin includes user, root includes admin). */
export const Roles = (minimum: Role): MethodDecorator & ClassDecorator => SetMetadata(MINIMUM_ROLE, minimum);

/** The verified caller; on a public route without a token it answers 401, so the handler always gets one. */
export const CurrentIdentity = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const identity = identityOf(request);
  if (!identity) {
    throw accessException(
      ErrorCode.Unauthenticated,
      'authentication_required',
      localeOfHeaders(request.headers),
    );
  }
  return identity;
});
