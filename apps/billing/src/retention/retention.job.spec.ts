import { MemoryKvStore } from '@tollgate/kv';
import { RETENTION_LOCK_KEY, RetentionJob } from './retention.job';
import type { RetentionSettings } from './retention-settings';
import type { RetentionService } from './retention.service';

const DAY_MS = 86_400_000;

describe('RetentionJob', () => {
  const settings: RetentionSettings = { days: () => 30, intervalMs: 60_000, batchSize: 100 };
  let kv: MemoryKvStore;
  let cutoffs: Date[];
  const retention = {
    purgeBefore: async (cutoff: Date) => {
      cutoffs.push(cutoff);
      return 3;
    },
  } as unknown as RetentionService;

  beforeEach(() => {
    kv = new MemoryKvStore();
    cutoffs = [];
  });
  afterEach(() => kv.close());

  it('purges rows older than the retention and lets the lock go', async () => {
    const job = new RetentionJob(retention, kv, settings);
    const before = Date.now();
    expect(await job.runOnce()).toBe(true);
    expect(cutoffs).toHaveLength(1);
    expect(cutoffs[0].getTime()).toBeGreaterThanOrEqual(before - 30 * DAY_MS);
    expect(cutoffs[0].getTime()).toBeLessThanOrEqual(Date.now() - 30 * DAY_MS);
    expect(await kv.get(RETENTION_LOCK_KEY)).toBeNull();
  });

  it('skips the round while another instance holds the lock, and leaves its lock alone', async () => {
    await kv.set(RETENTION_LOCK_KEY, 'another-instance', 60_000);
    expect(await new RetentionJob(retention, kv, settings).runOnce()).toBe(false);
    expect(cutoffs).toEqual([]);
    expect(await kv.get(RETENTION_LOCK_KEY)).toBe('another-instance');
  });

  it('keeps everything when the retention is 0 days', async () => {
    expect(await new RetentionJob(retention, kv, { ...settings, days: () => 0 }).runOnce()).toBe(false);
    expect(cutoffs).toEqual([]);
  });
});
