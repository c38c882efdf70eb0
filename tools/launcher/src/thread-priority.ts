import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux, where a thread has a nice value of
 * its own: setpriority on a thread id sets that thread's alone). Elsewhere, or when /proc cannot tell
 * the thread's id, nothing changes. Returns whether it did.
 */
export function lowerThisThreadPriority(nice: number): boolean {
  let threadId: number;
  try {
    // "<pid>/task/<tid>"
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return false;
  }
  if (!Number.isInteger(threadId) || threadId <= 0) return false;
  try {
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
