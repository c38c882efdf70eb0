import type { EntityManager } from '@mikro-orm/postgresql';
import { ErrorCode } from '@tollgate/contracts';
import type { OutboxRelay } from '@tollgate/persistence';
import { AppException, Role } from '@tollgate/platform';
import { PricingService } from './pricing.service';
import type { ServedModels } from './served-models';

/** A billing whose read of catalog.channel-models has not reached the topic's end yet. */
const stillReading = () => {
  const em = { fork: () => ({ find: () => Promise.resolve([]) }) } as unknown as EntityManager;
  const served = { forGroups: () => undefined } as unknown as ServedModels;
  return new PricingService(em, {} as OutboxRelay, served);
};

describe('the price list while billing still reads which channels serve what', () => {
  it('answers 503 in the caller’s language to anyone but an admin, who gets every model', async () => {
    const pricing = stillReading();
    const refusal = await pricing.catalogue(undefined, 'ru').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppException);
    expect(refusal).toMatchObject({
      code: ErrorCode.ServiceUnavailable,
      message: 'Прайс-лист загружается, повторите через несколько секунд',
    });
    expect((refusal as AppException).getStatus()).toBe(503);
    await expect(pricing.catalogue(undefined, 'en')).rejects.toMatchObject({
      message: 'The price list is loading; try again in a moment',
    });
    await expect(
      pricing.catalogue({ userId: 1, role: Role.Admin, group: 'default', via: 'session' }, 'en'),
    ).resolves.toMatchObject({ success: true, data: [] });
  });
});
