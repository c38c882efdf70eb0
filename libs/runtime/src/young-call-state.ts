import { setFlagsFromString } from 'node:v8';

/** V8's switch for allocation-site pretenuring (on by default). */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/**
 * Turns V8's allocation-site pretenuring off for this process, so that a call's objects are born in
 * the young generation and die there.
 *
 * V8 counts, per object or array literal, how many of its objects outlive a scavenge; once nearly all
 * do (a burst of concurrent calls, a slow acknowledgement from the broker), it allocates that literal's
 * objects straight into the old generation from then on, and never goes back. A scavenge treats every
 * pointer from the old generation into the young one as a root, whether or not the old object is still
 * alive, so each such dead object keeps what it pointed at alive: with one per-call literal pretenured,
 * every scavenge copied and promoted the whole state of every call since the previous one (request,
 * response, write buffers: ~8 KB a call, ~4.2 MB a scavenge at c=1 against ~0.9 MB, pauses of ~7 ms
 * against ~2.2, a mark-compact more under load), for the rest of the process's life. Whether relay
 * fell into that state was decided in its first seconds, in one run of seven to five of seven
 * (bench/ANALYSIS.md, h121); auth's usage consumer fell into it too, in one run of four (h125). Their
 * long-lived objects are few and made at start-up; they are copied once more before promotion instead.
 *
 * The flag is refused in NODE_OPTIONS, and a literal already pretenured stays so when it is turned
 * off: a service calls this first thing in its composition, before it loads its read models, joins
 * its consumer groups or serves a call. V8's flags are the process's: in embedded mode the first
 * call sets it for every service.
 */
export function keepCallStateYoung(setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags(NO_PRETENURING_FLAG);
}
