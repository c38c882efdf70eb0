import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@tollgate/runtime';
import {
  BOOKKEEPING_NICE_ENV,
  bookkeepingNiceFromEnv,
  DEFAULT_BOOKKEEPING_NICE,
  serviceNice,
} from './process-priority';
import { ServiceProcess } from './service-process';

/** The nice value of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('bookkeepingNiceFromEnv', () => {
  it('is 10 when unset, the given value otherwise, and 0 turns it off', () => {
    expect(bookkeepingNiceFromEnv({})).toBe(DEFAULT_BOOKKEEPING_NICE);
    expect(DEFAULT_BOOKKEEPING_NICE).toBe(10);
    expect(bookkeepingNiceFromEnv({ [BOOKKEEPING_NICE_ENV]: '15' })).toBe(15);
    expect(bookkeepingNiceFromEnv({ [BOOKKEEPING_NICE_ENV]: '0' })).toBe(0);
  });

  it('refuses anything but a whole number from 0 to 19', () => {
    for (const bad of ['-1', '20', 'low', '2.5'])
      expect(() => bookkeepingNiceFromEnv({ [BOOKKEEPING_NICE_ENV]: bad })).toThrow(BOOKKEEPING_NICE_ENV);
  });
});

describe('serviceNice', () => {
  it('lowers auth, billing, admin and chat and leaves gateway and relay at 0', () => {
    for (const service of ['auth', 'billing', 'admin', 'chat'] as const)
      expect(serviceNice(service, 10)).toBe(10);
    expect(serviceNice('gateway', 10)).toBe(0);
    expect(serviceNice('relay', 10)).toBe(0);
  });
});

// Skipped elsewhere on purpose: a nice value per thread is Linux's (CI and production images run Linux).
const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('ServiceProcess with a nice value', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'process-priority-'));
    // A stand-in for apps/billing/dist/main.js: a worker thread and a child process started before it
    // listens, then ready at once, answering with the child's pid.
    mkdirSync(join(root, 'apps', 'billing', 'dist'), { recursive: true });
    writeFileSync(
      join(root, 'apps', 'billing', 'dist', 'main.js'),
      `const { Worker } = require('node:worker_threads');
       new Worker('setInterval(() => {}, 60000)', { eval: true });
       const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
       process.on('SIGTERM', () => { child.kill(); process.exit(0); });
       setTimeout(() => require('node:http')
         .createServer((req, res) => res.end(String(child.pid)))
         .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('billing listening on the port')), 200);`,
    );
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function started(nice: number | undefined): Promise<{ service: ServiceProcess; child: number }> {
    const [port] = await freePorts(1);
    const service = new ServiceProcess({
      name: 'billing',
      repoRoot: root,
      port: port!,
      env: {},
      logDir: root,
      nice,
    });
    await service.start();
    const child = Number(await (await fetch(`${service.url}/`)).text());
    return { service, child };
  }

  it('gives every thread of the process and of its children that nice value', async () => {
    const own = threadNices(process.pid)[0]!;
    const target = Math.min(19, own + 7);
    const { service, child } = await started(target);
    try {
      const threads = threadNices(service.pid!);
      expect(threads.length).toBeGreaterThan(3);
      expect(new Set(threads)).toEqual(new Set([target]));
      expect(new Set(threadNices(child))).toEqual(new Set([target]));
    } finally {
      await service.kill();
    }
  });

  it("leaves the process at the launcher's own nice value without one", async () => {
    const own = threadNices(process.pid)[0]!;
    const { service, child } = await started(undefined);
    try {
      expect(new Set(threadNices(service.pid!))).toEqual(new Set([own]));
      expect(new Set(threadNices(child))).toEqual(new Set([own]));
    } finally {
      await service.kill();
    }
  });
});
