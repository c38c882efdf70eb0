import { CandidateIndex } from './candidate-index';
import { aChannel } from './routing.fixtures';

const ids = (index: CandidateIndex, model: string, group: string) =>
  index.bands(model, group).map((band) => band.attempts.map((a) => a.channel.id));

describe('CandidateIndex', () => {
  it('files channels in priority bands, highest first, ordered by id within a band', () => {
    const index = CandidateIndex.build([
      aChannel({ id: 4, priority: 0 }),
      aChannel({ id: 3, priority: 10 }),
      aChannel({ id: 1, priority: 10 }),
      aChannel({ id: 2, priority: -5 }),
    ]);
    expect(index.bands('gpt-4o', 'default').map((b) => b.priority)).toEqual([10, 0, -5]);
    expect(ids(index, 'gpt-4o', 'default')).toEqual([[1, 3], [4], [2]]);
    expect(index.largestBand).toBe(2);
  });

  it('serves a model listed in models or as a model_mapping key, with the mapping applied', () => {
    const index = CandidateIndex.build([
      aChannel({
        id: 1,
        models: ['gpt-4o'],
        model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06', 'my-alias': 'gpt-4o-mini' },
      }),
    ]);
    expect(index.bands('gpt-4o', 'default')[0]!.attempts[0]!.upstreamModel).toBe('gpt-4o-2024-08-06');
    expect(index.bands('my-alias', 'default')[0]!.attempts[0]!.upstreamModel).toBe('gpt-4o-mini');
    expect(index.bands('gpt-4o-mini', 'default')).toEqual([]);
  });

  it('keeps a model under its own name when the mapping value is empty', () => {
    const index = CandidateIndex.build([aChannel({ id: 1, model_mapping: { 'gpt-4o': '' } })]);
    expect(index.bands('gpt-4o', 'default')[0]!.attempts[0]!.upstreamModel).toBe('gpt-4o');
  });

  it('answers a group only with channels of that group (a private channel serves its client only)', () => {
    const index = CandidateIndex.build([
      aChannel({ id: 1, groups: ['default', 'vip'] }),
      aChannel({ id: 2, groups: ['acme-corp'] }),
    ]);
    expect(ids(index, 'gpt-4o', 'default')).toEqual([[1]]);
    expect(ids(index, 'gpt-4o', 'vip')).toEqual([[1]]);
    expect(ids(index, 'gpt-4o', 'acme-corp')).toEqual([[2]]);
    expect(ids(index, 'gpt-4o', 'other')).toEqual([]);
  });

  it('leaves out manually and automatically disabled channels but knows they exist', () => {
    const index = CandidateIndex.build([
      aChannel({ id: 1, status: 1 }),
      aChannel({ id: 2, status: 2 }),
      aChannel({ id: 3, status: 3 }),
    ]);
    expect(ids(index, 'gpt-4o', 'default')).toEqual([[1]]);
    expect([...index.channelIds].sort()).toEqual([1, 2, 3]);
  });

  it("lists a model for the groups of every channel that serves it, disabled or not, and no other group's", () => {
    const index = CandidateIndex.build([
      aChannel({ id: 1, groups: ['acme'], models: ['acme-gpt'], status: 2 }),
      aChannel({ id: 2, groups: ['default'], models: ['gpt-4o'], model_mapping: { 'my-alias': 'gpt-4o' } }),
    ]);
    expect(index.lists('acme-gpt', 'acme')).toBe(true);
    expect(index.lists('acme-gpt', 'default')).toBe(false);
    expect(index.lists('my-alias', 'default')).toBe(true);
    expect(index.lists('gpt-4o', 'acme')).toBe(false);
    expect(index.lists('made-up', 'default')).toBe(false);
  });

  it('answers unknown models with one shared empty list', () => {
    const index = CandidateIndex.build([aChannel({ id: 1 })]);
    expect(index.bands('nope', 'default')).toBe(index.bands('other', 'x'));
    expect(index.bands('nope', 'default')).toHaveLength(0);
  });
});
