import { TOPICS } from '@tollgate/contracts';
import { deadLetterTopic } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import {
  databaseOutage,
  deadLettered,
  describeOnRealInfrastructure,
  randomUserId,
  type TcpProxy,
} from '@tollgate/testing';
import { BillingHarness, settledState, type Billing } from './billing-harness';
import { aUsageEvent, userOnOtherPartition } from './builders';

jest.setTimeout(60_000);

const USAGE_RECORDED = TOPICS.usageRecorded.name;

// The fault is billing's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
describeOnRealInfrastructure(
  'billing usage settlement across a database outage (real infrastructure)',
  () => {
    const harness = new BillingHarness('real', 'billing-outage-it', {
      topics: [TOPICS.usageRecorded],
      record: [TOPICS.billingBalance, { name: deadLetterTopic(USAGE_RECORDED) }],
    });
    const deadLetters = () => harness.recorder(deadLetterTopic(USAGE_RECORDED));
    let billing: Billing;
    let database: TestDatabase;
    let proxy: TcpProxy;

    beforeAll(async () => {
      await harness.open();
      ({ billing, database, proxy } = await harness.startBehindProxy({ LOG_LEVEL: 'fatal' }));
    });
    afterAll(() => harness.close());

    it('charges every usage event published while its database was away once it is back, exactly once, dead-lettering none', async () => {
      const first = randomUserId();
      const second = userOnOtherPartition(first);
      // Settled before the outage: the consumer is running and has its partitions.
      await harness.publishUsage([aUsageEvent(first, { quota: 1 })]);
      await harness.balanceAfter(first, 1);

      const outage = await databaseOutage(proxy, {
        during: () =>
          harness.publishUsage([
            aUsageEvent(first, { quota: 100 }),
            aUsageEvent(second, { quota: 250 }),
            aUsageEvent(first, { quota: 30 }),
            aUsageEvent(second, { quota: 7 }),
          ]),
        deadLetters: deadLetters(),
      });
      // Billing did try its database while it was away.
      expect(outage.refused).toBeGreaterThan(0);
      // Anything the bus gave up on went to the dead-letter topic during the outage.
      expect(outage.deadLettered).toEqual([]);

      await harness.balanceAfter(first, 3);
      await harness.balanceAfter(second, 2);

      expect({
        first: await settledState(database, first),
        second: await settledState(database, second),
      }).toEqual({
        first: { quota: -131, used_quota: 131, request_count: 3, usage_logs: 3, ledger_charged: 131 },
        second: { quota: -257, used_quota: 257, request_count: 2, usage_logs: 2, ledger_charged: 257 },
      });
      expect(deadLettered(deadLetters())).toEqual([]);
      expect(await billing.ledgerAudit()).toEqual({
        status: 200,
        body: { success: true, message: '', data: [] },
      });
    });
  },
);
