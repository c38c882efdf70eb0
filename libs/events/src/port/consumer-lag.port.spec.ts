import { partitionLag } from './consumer-lag.port';

describe('partitionLag', () => {
  const bounds = { startOffset: 10, endOffset: 25 };

  it('counts from the committed offset to the end', () => {
    expect(partitionLag('t', 1, bounds, 20)).toEqual({
      topic: 't',
      partition: 1,
      committedOffset: 20,
      endOffset: 25,
      lag: 5,
    });
  });

  it('counts every retained record when the group has committed nothing', () => {
    expect(partitionLag('t', 0, bounds, null).lag).toBe(15);
  });

  it('does not count records removed below the start of the log', () => {
    expect(partitionLag('t', 0, bounds, 3).lag).toBe(15);
  });
});
