import { SlidingWindowLog } from './sliding-window-log';

describe('SlidingWindowLog', () => {
  it('allows up to the limit within one window and then refuses', () => {
    const log = new SlidingWindowLog();
    expect(log.hit(0, 2, 1_000)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
    expect(log.hit(10, 2, 1_000)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    expect(log.hit(20, 2, 1_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 980 });
  });

  it('lets a hit leave the window exactly windowMs after it was made', () => {
    const log = new SlidingWindowLog();
    log.hit(0, 1, 1_000);
    expect(log.hit(999, 1, 1_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1 });
    expect(log.hit(1_000, 1, 1_000)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
  });

  it('frees slots one by one as the oldest hits leave the window', () => {
    const log = new SlidingWindowLog();
    log.hit(0, 2, 1_000);
    log.hit(600, 2, 1_000);
    expect(log.hit(1_000, 2, 1_000).allowed).toBe(true);
    expect(log.hit(1_100, 2, 1_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 500 });
  });

  it('does not record refused hits', () => {
    const log = new SlidingWindowLog();
    log.hit(0, 1, 1_000);
    for (let t = 100; t < 1_000; t += 100) expect(log.hit(t, 1, 1_000).allowed).toBe(false);
    expect(log.hit(1_000, 1, 1_000).allowed).toBe(true);
  });

  it('waits for enough hits to leave when the limit is lowered below the count', () => {
    const log = new SlidingWindowLog();
    log.hit(0, 3, 1_000);
    log.hit(100, 3, 1_000);
    log.hit(200, 3, 1_000);
    // Under a lower limit enough hits must leave first: one for a limit of 2, two for a limit of 1.
    expect(log.hit(300, 2, 1_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 800 });
    expect(log.hit(300, 1, 1_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 900 });
  });

  it('stays ordered when the clock steps backwards', () => {
    const log = new SlidingWindowLog();
    log.hit(500, 3, 1_000);
    log.hit(100, 3, 1_000);
    log.hit(300, 3, 1_000);
    expect(log.hit(1_150, 3, 1_000)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    expect(log.hit(1_200, 3, 1_000)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 100 });
  });
});
