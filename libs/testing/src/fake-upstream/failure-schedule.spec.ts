import { FailureSchedule } from './failure-schedule';

function pattern(rate: number, count: number): string {
  const schedule = new FailureSchedule();
  return Array.from({ length: count }, () => (schedule.shouldFail(rate) ? 'x' : '.')).join('');
}

describe('FailureSchedule', () => {
  it('fails exactly every k-th request for rate 1/k', () => {
    expect(pattern(0.25, 12)).toBe('...x...x...x');
    expect(pattern(0.5, 6)).toBe('.x.x.x');
  });

  it('fails all or none at the ends of the range', () => {
    expect(pattern(1, 4)).toBe('xxxx');
    expect(pattern(0, 4)).toBe('....');
  });

  it('fails the expected share for other rates', () => {
    expect([...pattern(0.3, 100)].filter((c) => c === 'x')).toHaveLength(30);
  });

  it('starts over after reset', () => {
    const schedule = new FailureSchedule();
    schedule.shouldFail(0.5);
    schedule.reset();
    expect(schedule.shouldFail(0.5)).toBe(false);
    expect(schedule.shouldFail(0.5)).toBe(true);
  });
});
