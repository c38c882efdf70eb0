// Progress goes to stderr so that a caller can keep stdout for results.

/** A log whose lines start with `[name HH:MM:SS]`: the bench's own, and each stand-alone script's. */
export function namedLog(name) {
  return (message) =>
    process.stderr.write(`[${name} ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export const log = namedLog('bench');
