import { applyHeapGrowingPercent, heapGrowingPercent } from './heap-growing';

describe('heapGrowingPercent', () => {
  it("is V8's own heuristic (undefined) when neither variable is set", () => {
    expect(heapGrowingPercent({}, 'relay')).toBeUndefined();
    expect(heapGrowingPercent({ TOLLGATE_HEAP_GROWING_PERCENT: ' ' }, 'relay')).toBeUndefined();
  });

  it("takes the service's own variable over the shared one", () => {
    const env = { TOLLGATE_HEAP_GROWING_PERCENT: '100', TOLLGATE_HEAP_GROWING_PERCENT_RELAY: '50' };
    expect(heapGrowingPercent(env, 'relay')).toBe(50);
    expect(heapGrowingPercent(env, 'gateway')).toBe(100);
  });

  it.each(['0', '5', '1001', '50%', '1.5', 'fast'])('refuses %j', (raw) => {
    expect(() => heapGrowingPercent({ TOLLGATE_HEAP_GROWING_PERCENT: raw }, 'relay')).toThrow(
      /TOLLGATE_HEAP_GROWING_PERCENT must be an integer from 10 to 1000/,
    );
  });
});

describe('applyHeapGrowingPercent', () => {
  it("passes V8 the service's percent, and nothing when it is unset", () => {
    const setFlags = jest.fn();
    applyHeapGrowingPercent({ TOLLGATE_HEAP_GROWING_PERCENT_GATEWAY: '50' }, 'gateway', setFlags);
    applyHeapGrowingPercent({ TOLLGATE_HEAP_GROWING_PERCENT_GATEWAY: '50' }, 'relay', setFlags);
    expect(setFlags.mock.calls).toEqual([['--heap-growing-percent=50']]);
  });
});
