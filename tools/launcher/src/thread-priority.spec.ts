import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ModuleKind, transpileModule } from 'typescript';

/** A thread's nice value from /proc/<pid>/task/<tid>/stat (field 19). */
function niceOf(threadPath: string): number {
  const stat = readFileSync(`/proc/${threadPath}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

// Skipped elsewhere on purpose: a per-thread nice value and /proc/thread-self are Linux's, and
// lowerThisThreadPriority does nothing on other systems (CI and production images run Linux).
const onLinux = process.platform === 'linux' ? it : it.skip;

describe('lowerThisThreadPriority', () => {
  onLinux('lowers the calling worker thread alone, not the process', async () => {
    const mainBefore = niceOf(readlinkSync('/proc/thread-self'));
    const target = Math.min(19, mainBefore + 5);
    // The module under test, compiled to CommonJS, run in a worker thread of its own.
    const compiled = transpileModule(readFileSync(join(__dirname, 'thread-priority.ts'), 'utf8'), {
      compilerOptions: { module: ModuleKind.CommonJS },
    }).outputText;
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const exports = {};
       ${compiled}
       const done = exports.lowerThisThreadPriority(${target});
       parentPort.postMessage({ done, thread: require('node:fs').readlinkSync('/proc/thread-self') });
       setTimeout(() => {}, 60_000);`,
      { eval: true },
    );
    try {
      const { done, thread } = await new Promise<{ done: boolean; thread: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(done).toBe(true);
      expect(niceOf(thread)).toBe(target);
      expect(niceOf(readlinkSync('/proc/thread-self'))).toBe(mainBefore);
    } finally {
      await worker.terminate();
    }
  });
});
