// What every non-streaming load generator (k6.mjs, wrk.mjs) does around one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCpuWindow } from './cpu.mjs';

/**
 * Runs `run(dir)` with a scratch directory, removed after, and, when the target names its processes,
 * a CPU window around it: `run` resolves to the load's figures with `served`, and the CPU the target's
 * processes spent per call served over the window is added as `cpu`.
 */
export async function measuredLoad(target, run) {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-load-'));
  const cpuWindow = target.processes ? openCpuWindow(target.processes) : undefined;
  try {
    const figures = await run(dir);
    return { ...figures, cpu: cpuWindow?.close(figures.served) };
  } finally {
    cpuWindow?.close(0);
    rmSync(dir, { recursive: true, force: true });
  }
}
