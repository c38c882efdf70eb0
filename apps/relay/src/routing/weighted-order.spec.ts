import type { CatalogChannel } from '@tollgate/contracts';
import { CandidateIndex } from './candidate-index';
import type { RouteAttempt } from './route-attempt';
import { aChannel, seededRandom } from './routing.fixtures';
import { appendWeightedOrder } from './weighted-order';

function bandOf(channels: CatalogChannel[]) {
  const [band] = CandidateIndex.build(channels).bands('gpt-4o', 'default');
  return band!;
}

const all = () => true;

describe('appendWeightedOrder', () => {
  it('picks the first channel in proportion to its weight (seeded, 20 000 draws)', () => {
    const band = bandOf([
      aChannel({ id: 1, weight: 1 }),
      aChannel({ id: 2, weight: 3 }),
      aChannel({ id: 3, weight: 6 }),
    ]);
    const random = seededRandom(42);
    const scratch = new Uint8Array(3);
    const firsts = new Map<number, number>();
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const out: RouteAttempt[] = [];
      appendWeightedOrder(band, all, random, 1, out, scratch);
      firsts.set(out[0]!.channel.id, (firsts.get(out[0]!.channel.id) ?? 0) + 1);
    }
    expect(firsts.get(1)! / draws).toBeCloseTo(0.1, 1);
    expect(firsts.get(2)! / draws).toBeCloseTo(0.3, 1);
    expect(firsts.get(3)! / draws).toBeCloseTo(0.6, 1);
  });

  it('orders the rest without replacement: the second pick is weighted among those left', () => {
    const band = bandOf([aChannel({ id: 1, weight: 1 }), aChannel({ id: 2, weight: 9 })]);
    const random = seededRandom(7);
    const scratch = new Uint8Array(2);
    let heavyFirst = 0;
    for (let i = 0; i < 5000; i++) {
      const out: RouteAttempt[] = [];
      appendWeightedOrder(band, all, random, 5, out, scratch);
      expect(out.map((a) => a.channel.id).sort()).toEqual([1, 2]);
      if (out[0]!.channel.id === 2) heavyFirst++;
    }
    expect(heavyFirst / 5000).toBeCloseTo(0.9, 1);
  });

  it('puts weight-0 channels after every weighted one', () => {
    const band = bandOf([
      aChannel({ id: 1, weight: 0 }),
      aChannel({ id: 2, weight: 5 }),
      aChannel({ id: 3, weight: 0 }),
      aChannel({ id: 4, weight: 1 }),
    ]);
    const random = seededRandom(3);
    const scratch = new Uint8Array(4);
    for (let i = 0; i < 200; i++) {
      const out: RouteAttempt[] = [];
      appendWeightedOrder(band, all, random, 4, out, scratch);
      const ids = out.map((a) => a.channel.id);
      expect(ids.slice(0, 2).sort()).toEqual([2, 4]);
      expect(ids.slice(2).sort()).toEqual([1, 3]);
    }
  });

  it('uses a weight-0 channel when it is the only one admitted', () => {
    const band = bandOf([aChannel({ id: 1, weight: 0 }), aChannel({ id: 2, weight: 5 })]);
    const out: RouteAttempt[] = [];
    appendWeightedOrder(band, (c) => c.id !== 2, seededRandom(1), 3, out, new Uint8Array(2));
    expect(out.map((a) => a.channel.id)).toEqual([1]);
  });

  it('stops at the limit and skips channels the filter refuses', () => {
    const band = bandOf([1, 2, 3, 4, 5].map((id) => aChannel({ id })));
    const out: RouteAttempt[] = [];
    appendWeightedOrder(band, (c) => c.id % 2 === 1, seededRandom(9), 2, out, new Uint8Array(5));
    expect(out).toHaveLength(2);
    for (const attempt of out) expect([1, 3, 5]).toContain(attempt.channel.id);
  });

  it('gives the top of the range to the last weighted channel if random() returns 1', () => {
    const band = bandOf([aChannel({ id: 1, weight: 2 }), aChannel({ id: 2, weight: 2 })]);
    const out: RouteAttempt[] = [];
    appendWeightedOrder(band, all, () => 1, 1, out, new Uint8Array(2));
    expect(out.map((a) => a.channel.id)).toEqual([2]);
  });
});
