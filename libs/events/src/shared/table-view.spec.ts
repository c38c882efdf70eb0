import { silentEventBusLogger } from './logger';
import { TableView } from './table-view';

function view<T>(decode?: (value: unknown) => T) {
  const detached: unknown[] = [];
  const table = new TableView<T>('prices', decode, silentEventBusLogger, async (v) => void detached.push(v));
  return { table, detached };
}

describe('TableView', () => {
  it('keeps the latest value per key and deletes on tombstones, telling listeners', () => {
    const { table } = view<number>();
    const changes: Array<[string, number | undefined]> = [];
    table.onChange((key, value) => changes.push([key, value]));
    table.apply('a', 1);
    table.apply('a', 2);
    table.apply('b', 3);
    table.apply('b', null);
    table.apply('missing', null);
    expect([...table.entries()]).toEqual([['a', 2]]);
    expect(table.size).toBe(1);
    expect(changes).toEqual([
      ['a', 1],
      ['a', 2],
      ['b', 3],
      ['b', undefined],
    ]);
  });

  it('drops a key whose new value cannot be decoded instead of keeping the stale one', () => {
    const { table } = view<number>((value) => {
      if (typeof value !== 'number') throw new Error('not a number');
      return value;
    });
    table.apply('a', 1);
    table.apply('a', 'garbage');
    expect(table.get('a')).toBeUndefined();
  });

  it('resolves caughtUp once and survives a throwing listener', async () => {
    const { table } = view<number>();
    table.onChange(() => {
      throw new Error('listener bug');
    });
    expect(table.isCaughtUp()).toBe(false);
    table.markCaughtUp();
    await expect(table.caughtUp()).resolves.toBeUndefined();
    expect(() => table.apply('a', 1)).not.toThrow();
    expect(table.get('a')).toBe(1);
  });

  it('detaches on stop and rejects a caughtUp that never came', async () => {
    const { table, detached } = view<number>();
    await table.stop();
    await expect(table.caughtUp()).rejects.toThrow(/stopped before it caught up/);
    expect(detached).toEqual([table]);
    table.apply('a', 1);
    expect(table.size).toBe(0);
  });
});
