import { Controller, Get, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@tollgate/contracts';
import type { FastifyRequest } from 'fastify';
import { AppException } from '../errors/app.exception';
import { Public, Roles } from './identity.decorators';
import { InternalIdentityGuard } from './internal-identity.guard';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from './internal-token';
import { identityOf } from './request-identity';
import { Role, hasRole } from './role';

const SECRET = 'guard-secret-that-is-at-least-32-chars';

@Controller()
class SampleController {
  @Get()
  member(): void {}

  @Roles(Role.Admin)
  @Get()
  admin(): void {}

  @Roles(Role.Root)
  @Get()
  root(): void {}

  @Public()
  @Get()
  open(): void {}
}

@Roles(Role.Admin)
@Controller()
class AdminController {
  @Get()
  list(): void {}

  @Public()
  @Get()
  open(): void {}
}

@Public()
@Controller()
class PublicController {
  @Get()
  open(): void {}

  @Roles(Role.User)
  @Get()
  member(): void {}
}

type Handler = 'member' | 'admin' | 'root' | 'open';

const contextIn = (controller: new () => object, handler: string, token?: string): ExecutionContext =>
  ({
    getType: () => 'http',
    getHandler: () => (controller.prototype as Record<string, unknown>)[handler],
    getClass: () => controller,
    switchToHttp: () => ({
      getRequest: () => ({ headers: token === undefined ? {} : { [INTERNAL_IDENTITY_HEADER]: token } }),
    }),
  }) as unknown as ExecutionContext;

const contextFor = (handler: Handler, token?: string, headers: Record<string, string> = {}) => {
  const request = {
    headers: token === undefined ? headers : { ...headers, [INTERNAL_IDENTITY_HEADER]: token },
  } as unknown as FastifyRequest;
  const context = {
    getType: () => 'http',
    getHandler: () => SampleController.prototype[handler],
    getClass: () => SampleController,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
};

const tokenFor = (role: Role) => signInternalToken({ userId: 5, role, via: 'session' }, SECRET);

const refusal = async (promise: Promise<unknown>): Promise<ErrorCode> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppException);
  return (error as AppException).code;
};

describe('InternalIdentityGuard', () => {
  const guard = new InternalIdentityGuard(new Reflector(), SECRET);

  it('lets a valid token through and attaches the identity to the request', async () => {
    const { context, request } = contextFor('member', await tokenFor(Role.User));
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(identityOf(request)).toEqual({ userId: 5, role: Role.User, via: 'session' });
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect(await refusal(guard.canActivate(contextFor('member').context))).toBe(ErrorCode.Unauthenticated);
    expect(await refusal(guard.canActivate(contextFor('member', 'garbage').context))).toBe(
      ErrorCode.Unauthenticated,
    );
  });

  it('answers 403 below the minimum role and lets higher roles in', async () => {
    expect(await refusal(guard.canActivate(contextFor('admin', await tokenFor(Role.User)).context))).toBe(
      ErrorCode.Forbidden,
    );
    await expect(guard.canActivate(contextFor('admin', await tokenFor(Role.Admin)).context)).resolves.toBe(
      true,
    );
    await expect(guard.canActivate(contextFor('admin', await tokenFor(Role.Root)).context)).resolves.toBe(
      true,
    );
    expect(await refusal(guard.canActivate(contextFor('root', await tokenFor(Role.Admin)).context))).toBe(
      ErrorCode.Forbidden,
    );
  });

  it('refuses in the caller’s language: Russian without Accept-Language, English when asked', async () => {
    const messageOf = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (reason: unknown) => (reason as AppException).message,
      );
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    expect(await messageOf(guard.canActivate(contextFor('member').context))).toBe(
      'Необходимо войти в аккаунт',
    );
    expect(await messageOf(guard.canActivate(contextFor('member', undefined, english).context))).toBe(
      'Authentication required',
    );
    const user = await tokenFor(Role.User);
    expect(await messageOf(guard.canActivate(contextFor('admin', user).context))).toBe('Недостаточно прав');
    expect(await messageOf(guard.canActivate(contextFor('admin', user, english).context))).toBe(
      'Insufficient permissions',
    );
  });

  it('opens public routes to anyone, still reading a valid token and ignoring a bad one', async () => {
    await expect(guard.canActivate(contextFor('open').context)).resolves.toBe(true);
    await expect(guard.canActivate(contextFor('open', 'garbage').context)).resolves.toBe(true);
    const { context, request } = contextFor('open', await tokenFor(Role.Admin));
    await guard.canActivate(context);
    expect(identityOf(request)?.role).toBe(Role.Admin);
  });
});

describe('InternalIdentityGuard on controllers with their own rule', () => {
  const guard = new InternalIdentityGuard(new Reflector(), SECRET);

  it("lets a method's rule win over its controller's", async () => {
    expect(
      await refusal(guard.canActivate(contextIn(AdminController, 'list', await tokenFor(Role.User)))),
    ).toBe(ErrorCode.Forbidden);
    await expect(guard.canActivate(contextIn(AdminController, 'open'))).resolves.toBe(true);
    await expect(guard.canActivate(contextIn(PublicController, 'open'))).resolves.toBe(true);
    expect(await refusal(guard.canActivate(contextIn(PublicController, 'member')))).toBe(
      ErrorCode.Unauthenticated,
    );
  });
});

describe('hasRole', () => {
  it('treats higher roles as including lower ones', () => {
    expect(hasRole(Role.Root, Role.Admin)).toBe(true);
    expect(hasRole(Role.Admin, Role.Admin)).toBe(true);
    expect(hasRole(Role.User, Role.Admin)).toBe(false);
  });
});
