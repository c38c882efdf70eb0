import type { CatalogChannel } from '@tollgate/contracts';
import type { PriorityBand } from './candidate-index';
import type { RouteAttempt } from './route-attempt';

const EXCLUDED = 0;
const AVAILABLE = 1;

/**
 * Appends the band's admitted channels to `out`, until it holds `limit` attempts, in weighted
 * random order without replacement: each next pick is proportional to weight among those left.
 * Weight-0 channels come only after every weighted one, in uniform random order. `available`
 * is caller-owned scratch space at least as long as the band, so a plan allocates nothing here.
 */
export function appendWeightedOrder(
  band: PriorityBand,
  admits: (channel: CatalogChannel) => boolean,
  random: () => number,
  limit: number,
  out: RouteAttempt[],
  available: Uint8Array,
): void {
  const { attempts } = band;
  let weightLeft = 0;
  let unweightedLeft = 0;
  for (let i = 0; i < attempts.length; i++) {
    const channel = attempts[i].channel;
    if (admits(channel)) {
      available[i] = AVAILABLE;
      if (channel.weight > 0) weightLeft += channel.weight;
      else unweightedLeft++;
    } else {
      available[i] = EXCLUDED;
    }
  }

  while (out.length < limit && weightLeft + unweightedLeft > 0) {
    const picked =
      weightLeft > 0
        ? pickWeighted(attempts, available, random() * weightLeft)
        : pickUnweighted(attempts, available, Math.floor(random() * unweightedLeft));
    available[picked] = EXCLUDED;
    const attempt = attempts[picked];
    if (attempt.channel.weight > 0) weightLeft -= attempt.channel.weight;
    else unweightedLeft--;
    out.push(attempt);
  }
}

/** The available weighted entry whose cumulative weight range holds `point`. */
function pickWeighted(attempts: readonly RouteAttempt[], available: Uint8Array, point: number): number {
  let last = -1;
  for (let i = 0; i < attempts.length; i++) {
    const weight = attempts[i].channel.weight;
    if (available[i] === EXCLUDED || weight === 0) continue;
    if (point < weight) return i;
    point -= weight;
    last = i;
  }
  // Only reached if random() returned 1 or more; the last weighted entry owns the top end.
  return last;
}

/** The `nth` (from 0) available weight-0 entry. */
function pickUnweighted(attempts: readonly RouteAttempt[], available: Uint8Array, nth: number): number {
  let last = -1;
  for (let i = 0; i < attempts.length; i++) {
    if (available[i] === EXCLUDED || attempts[i].channel.weight > 0) continue;
    if (nth === 0) return i;
    nth--;
    last = i;
  }
  return last;
}
