import { MemoryKvStore } from '@tollgate/kv';
import type { ChannelTestResult } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import type { AdminConfig } from '../config';
import { AUTO_ENABLE_LOCK_KEY, ChannelAutoEnableJob } from './channel-auto-enable.job';
import type { ChannelsService } from './channels.service';

const result = (success: boolean): ChannelTestResult => ({ success, time_ms: 5, model: 'm', message: '' });

/** A service whose auto-disabled channels are `outcomes`' keys; a test passes when its value is true. */
const serviceWith = (outcomes: Record<number, boolean | Error>) => {
  const reenabled: number[] = [];
  const tested: number[] = [];
  const service = {
    autoDisabledIds: async () => Object.keys(outcomes).map(Number),
    test: async (id: number) => {
      tested.push(id);
      const outcome = outcomes[id]!;
      if (outcome instanceof Error) throw outcome;
      return result(outcome);
    },
    reenable: async (id: number) => {
      reenabled.push(id);
      return true;
    },
  } as unknown as ChannelsService;
  return { service, reenabled, tested };
};

const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() } as unknown as Logger;
const config = { CHANNEL_AUTO_ENABLE_INTERVAL_SECONDS: 300 } as AdminConfig;

describe('ChannelAutoEnableJob', () => {
  it('re-enables the channels whose test passes and keeps going past one relay could not test', async () => {
    const { service, reenabled, tested } = serviceWith({
      1: true,
      2: false,
      3: new Error('relay down'),
      4: true,
    });
    const job = new ChannelAutoEnableJob(service, new MemoryKvStore(), logger, config);

    expect(await job.runRound()).toEqual({ tested: 3, enabled: 2, unavailable: 1 });
    expect(tested).toEqual([1, 2, 3, 4]);
    expect(reenabled).toEqual([1, 4]);
  });

  it('lets one replica run a round per interval: the others find the lock taken', async () => {
    const kv = new MemoryKvStore();
    const first = serviceWith({ 7: true });
    const second = serviceWith({ 7: true });
    const jobs = [
      new ChannelAutoEnableJob(first.service, kv, logger, config),
      new ChannelAutoEnableJob(second.service, kv, logger, config),
    ];

    const rounds = await Promise.all(jobs.map((job) => job.runRound()));

    expect(rounds.filter((round) => round !== undefined)).toHaveLength(1);
    expect([...first.tested, ...second.tested]).toEqual([7]);
    expect(await kv.ttl(AUTO_ENABLE_LOCK_KEY)).toBeGreaterThan(250_000);
  });
});
