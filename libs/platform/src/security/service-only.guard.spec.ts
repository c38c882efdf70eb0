import { Controller, Post, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@tollgate/contracts';
import type { BaseServiceConfig } from '../config/base-service-config';
import { AppException } from '../errors/app.exception';
import { PUBLIC_ROUTE } from '../identity/identity.decorators';
import { ServiceOnly, ServiceTokenGuard } from './service-only.guard';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner } from './service-token';

const SECRET = 'service-guard-secret-at-least-32-characters';

@Controller()
class InternalController {
  @ServiceOnly('relay:channel-test')
  @Post()
  test(): void {}

  @Post()
  unmarked(): void {}
}

const contextFor = (handler: 'test' | 'unmarked', token?: string): ExecutionContext =>
  ({
    getType: () => 'http',
    getHandler: () => InternalController.prototype[handler],
    getClass: () => InternalController,
    switchToHttp: () => ({
      getRequest: () => ({ headers: token === undefined ? {} : { [SERVICE_TOKEN_HEADER]: token } }),
    }),
  }) as unknown as ExecutionContext;

const refusalOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );

describe('ServiceOnly', () => {
  const guard = new ServiceTokenGuard(new Reflector(), {
    TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
  } as BaseServiceConfig);

  it('marks the route public for the identity guard', () => {
    expect(new Reflector().get(PUBLIC_ROUTE, InternalController.prototype.test)).toBe(true);
  });

  it('lets a token for the route audience through', async () => {
    const token = await new ServiceTokenSigner(SECRET, 'relay:channel-test').token();
    await expect(guard.canActivate(contextFor('test', token))).resolves.toBe(true);
  });

  it.each([
    ['no token', undefined],
    ['another audience', 'billing:account-quota'],
    ['another secret', 'wrong-secret'],
  ])('answers 401 for %s', async (_case, variant) => {
    const token =
      variant === undefined
        ? undefined
        : variant === 'wrong-secret'
          ? await new ServiceTokenSigner(`${SECRET}-other`, 'relay:channel-test').token()
          : await new ServiceTokenSigner(SECRET, variant).token();
    const error = await refusalOf(guard.canActivate(contextFor('test', token)));
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).code).toBe(ErrorCode.Unauthenticated);
  });

  it('refuses a route that names no audience even with a valid token', async () => {
    const token = await new ServiceTokenSigner(SECRET, 'relay:channel-test').token();
    expect(await refusalOf(guard.canActivate(contextFor('unmarked', token)))).toBeInstanceOf(AppException);
  });
});
