import { parse, stringify, validate, version } from 'uuid';
import { timeOrderedUuid } from './event-id';

describe('timeOrderedUuid', () => {
  it("is a v7 UUID in uuid's own text form", () => {
    for (let i = 0; i < 1000; i++) {
      const id = timeOrderedUuid();
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(stringify(parse(id))).toBe(id);
    }
  });

  it('carries the time it was made in its first 48 bits', () => {
    const before = Date.now();
    const id = timeOrderedUuid();
    const after = Date.now();
    const msecs = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(after);
  });

  it('orders successive ids as they were made, each one new and none changed by the next', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedUuid());
    const texts = ids.map((id) => `${id}`);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    timeOrderedUuid();
    expect(ids).toEqual(texts);
  });
});
