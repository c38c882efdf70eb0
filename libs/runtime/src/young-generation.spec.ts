import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runMain } from './run-main';
import type { RunningService, ServiceRuntime } from './service-runtime';
import { NO_PRETENURING_FLAG, turnOffPretenuring } from './young-generation';

// The process's V8 flags are not this suite's to change; the child processes below get their own.
jest.mock('node:v8', () => ({ ...jest.requireActual<object>('node:v8'), setFlagsFromString: jest.fn() }));

/**
 * A child Node process that makes a literal's objects outlive scavenges until V8 pretenures the
 * literal, then prints how many of 1,000 new objects from it were born in the old generation.
 */
function oldBornAfterTraining(applyFlag: boolean): number {
  const script = `
    ${applyFlag ? `require('node:v8').setFlagsFromString(${JSON.stringify(NO_PRETENURING_FLAG)});` : ''}
    const inYoung = new Function('o', 'return %InYoungGeneration(o)');
    function callState(i) { return { id: i, buffers: [i] }; }
    let kept = [];
    for (let i = 0; i < 3e6; i++) {
      kept.push(callState(i));
      if (kept.length > 200000) kept = [];
    }
    let oldBorn = 0;
    for (let i = 0; i < 1000; i++) if (!inYoung(callState(i))) oldBorn++;
    process.stdout.write(String(oldBorn));
  `;
  const child = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return Number(child.stdout);
}

describe('turnOffPretenuring', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it('turns off V8 allocation-site pretenuring', () => {
    const setFlags = jest.fn();
    turnOffPretenuring(setFlags);
    expect(setFlags.mock.calls).toEqual([['--no-allocation-site-pretenuring']]);
  });

  it("is applied by runMain before the service's runtime and code load", async () => {
    const flagsWhenLoaded: Record<string, unknown[][]> = {};
    const snapshot = (what: string) =>
      (flagsWhenLoaded[what] = [...jest.mocked(setFlagsFromString).mock.calls]);
    const service: RunningService = {
      name: 'probe',
      port: 1,
      url: 'http://127.0.0.1:1',
      close: async () => {},
    };
    const runtime = {
      bus: { close: async () => {} },
      kv: { close: async () => {} },
    } as unknown as ServiceRuntime;
    const signalHandlers = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await runMain(
        'probe',
        async () => {
          snapshot('service');
          return async () => service;
        },
        () => {
          snapshot('runtime');
          return runtime;
        },
        {},
      );
    } finally {
      write.mockRestore();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const handler of process.listeners(signal)) {
          if (!signalHandlers[signal].includes(handler)) process.removeListener(signal, handler);
        }
      }
    }
    expect(flagsWhenLoaded).toEqual({ runtime: [[NO_PRETENURING_FLAG]], service: [[NO_PRETENURING_FLAG]] });
  });

  // V8 ignores a flag it does not know: this would fail were the flag renamed or its effect gone.
  it('keeps a literal whose objects outlived scavenges allocating young, where V8 alone would pretenure it', () => {
    expect(oldBornAfterTraining(false)).toBe(1000);
    expect(oldBornAfterTraining(true)).toBe(0);
  }, 30_000);
});
