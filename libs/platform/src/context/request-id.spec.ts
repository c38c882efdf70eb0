import { generateRequestId, saneId } from './request-id';

describe('generateRequestId', () => {
  it('gives ids that sort in the order they were made, each a sane id of its own', () => {
    const ids = Array.from({ length: 200 }, () => generateRequestId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(saneId(id)).toBe(id);
  });
});
