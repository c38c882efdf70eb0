import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@tollgate/testing';
import { startEmbedded, type EmbeddedRun } from './support/embedded-run';

jest.setTimeout(240_000);

const SETTINGS = { TOLLGATE_ROOT_PASSWORD: 'embedded-root-password' };

async function ready(run: EmbeddedRun, port: number): Promise<void> {
  await eventually(
    'the embedded platform',
    async () => {
      if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
      return (await fetch(`http://127.0.0.1:${port}/health/ready`)).ok ? true : undefined;
    },
    120_000,
  );
}

describe('embedded data directory lock', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-lock-'));
  const runs: EmbeddedRun[] = [];
  const start = (port: number) => {
    const run = startEmbedded(dataDir, port, SETTINGS);
    runs.push(run);
    return run;
  };

  afterAll(async () => {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGKILL');
        await run.exited;
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second live platform on the same data directory, and starts after kill -9 even when the pid the old lock file recorded now belongs to a running process', async () => {
    const port = await freePort();
    const first = start(port);
    await ready(first, port);

    const second = start(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `The data directory ${dataDir} is in use by another running Tollgate platform`,
    );

    first.child.kill('SIGKILL');
    await first.exited;
    // The former lock was a pid file in the bus directory; after a container restart its pid is
    // often some other live process: here, this test runner.
    writeFileSync(join(dataDir, 'bus', 'LOCK'), String(process.pid));

    const restarted = start(port);
    await ready(restarted, port);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });
});
