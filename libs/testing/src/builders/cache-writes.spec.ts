import { billingPriceV1, chargeQuota, usageRecordedV1 } from '@tollgate/contracts';
import {
  aPriceSnapshotWithCacheWrites,
  aPriceWithCacheWrites,
  aUsageRecordedWithCacheWrites,
  aUsageWithCacheWrites,
} from './cache-writes';

describe('cache-write builders', () => {
  it('builds a billing.price entry and a usage.recorded event that pass their schemas', () => {
    const price = aPriceWithCacheWrites();
    const event = aUsageRecordedWithCacheWrites();

    expect(billingPriceV1.parse(price)).toEqual(price);
    expect(usageRecordedV1.parse(event)).toEqual(event);
  });

  it("charges the event's tokens at its prices what the event says it was charged", () => {
    expect(chargeQuota(aUsageWithCacheWrites(), aPriceSnapshotWithCacheWrites())).toBe(
      aUsageRecordedWithCacheWrites().quota,
    );
  });
});
