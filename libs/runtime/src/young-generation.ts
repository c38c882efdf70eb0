import { setFlagsFromString } from 'node:v8';

/** V8's switch for allocation-site pretenuring (on by default). */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/**
 * Turns V8's allocation-site pretenuring off for this process, so that the objects a request or an
 * event makes are born in the young generation and die there.
 *
 * V8 counts, per object or array literal, how many of its objects outlive a scavenge; once nearly all
 * do (a burst of concurrent calls, a slow acknowledgement from the broker), it allocates that literal's
 * objects straight into the old generation from then on, and never goes back. A scavenge treats every
 * pointer from the old generation into the young one as a root, whether or not the old object is still
 * alive, so each such dead object keeps what it pointed at alive: in relay, with one per-call literal
 * pretenured, every scavenge copied and promoted the whole state of every call since the previous one
 * (~8 KB a call, ~4.2 MB a scavenge at c=1 against ~0.9 MB, pauses of ~7 ms against ~2.2, relay's CPU
 * per call +20 % at c=64), for the rest of the process's life, in five to seven runs of seven
 * (bench/ANALYSIS.md, h121). No other service was worse with it off (h124). Long-lived objects made
 * after start-up are copied once more before promotion instead of being born old.
 *
 * The flag is refused in NODE_OPTIONS, and a literal already pretenured stays so when it is turned
 * off: runMain applies this first, before the service's code loads (as does embedded mode's main).
 */
export function turnOffPretenuring(setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags(NO_PRETENURING_FLAG);
}
