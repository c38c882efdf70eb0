import { readdirSync, readFileSync } from 'node:fs';
import { newRunId, requireEnv } from '@tollgate/testing';
import { startDistributed, type DistributedPlatform } from '../../src/distributed';
import { BOOKKEEPING_NICE_ENV } from '../../src/process-priority';
import { ALL_SERVICES, StandInRoot } from '../support/stand-in-platform';

jest.setTimeout(60_000);

/** The nice values of a process's threads (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(pid: number): Set<number> {
  return new Set(
    readdirSync(`/proc/${pid}/task`).map((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    }),
  );
}

// A nice value per thread is Linux's (CI and production images run Linux); elsewhere the launcher
// lowers each process as a whole, which this spec does not read.
const onLinux = process.platform === 'linux' ? describe : describe.skip;

/**
 * The distributed launcher runs every service on one machine: auth, billing, admin and chat at a lower
 * priority than gateway and relay, unless TOLLGATE_BOOKKEEPING_NICE=0. Each service here is a stand-in
 * that is ready at once; the databases are real (the launcher creates them).
 */
onLinux('startDistributed: the bookkeeping services at a lower priority', () => {
  const { DATABASE_URL } = requireEnv(['DATABASE_URL']);
  const own = [...threadNices(process.pid)][0]!;
  const prefix = `launcher_nice_${newRunId()}`;
  let standIns: StandInRoot;

  beforeAll(() => {
    standIns = new StandInRoot(
      `require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1', () =>
        console.log(process.env.SERVICE_NAME + ' listening on http://127.0.0.1:' + process.env.PORT));`,
      DATABASE_URL,
      prefix,
    );
  });

  afterAll(() => standIns.remove());

  async function withPlatform(
    env: Record<string, string>,
    check: (p: DistributedPlatform) => void,
  ): Promise<void> {
    const platform = await startDistributed({
      ...standIns.options(),
      env,
      // The stand-ins listen on their port only (distributed-unix-hop.spec.ts covers relay's socket).
      unixHop: false,
    });
    try {
      check(platform);
    } finally {
      await platform.stop();
    }
  }

  it('gives every thread of auth, billing, admin and chat nice 10 and leaves gateway and relay alone', async () => {
    await withPlatform({ [BOOKKEEPING_NICE_ENV]: '' }, (platform) => {
      for (const name of ['auth', 'billing', 'admin', 'chat'] as const)
        expect([name, threadNices(platform.services[name].pid!)]).toEqual([
          name,
          new Set([Math.max(own, 10)]),
        ]);
      for (const name of ['gateway', 'relay'] as const)
        expect([name, threadNices(platform.services[name].pid!)]).toEqual([name, new Set([own])]);
    });
  });

  it(`leaves every service at the launcher's priority with ${BOOKKEEPING_NICE_ENV}=0`, async () => {
    await withPlatform({ [BOOKKEEPING_NICE_ENV]: '0' }, (platform) => {
      for (const name of ALL_SERVICES)
        expect([name, threadNices(platform.services[name].pid!)]).toEqual([name, new Set([own])]);
    });
  });
});
