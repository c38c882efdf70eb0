import { AppException } from '@tollgate/platform';
import { logRangeOf } from './log-range';

const DAY = 86_400;

describe('logRangeOf', () => {
  const now = 1_800_000_000;

  it('defaults to the 14 days up to now', () => {
    expect(logRangeOf({}, now, 'ru')).toEqual({ start: now - 14 * DAY, end: now });
    expect(logRangeOf({ end_timestamp: 1000 * DAY }, now, 'ru')).toEqual({
      start: 986 * DAY,
      end: 1000 * DAY,
    });
  });

  it('accepts a range just under 31 days and refuses 31 days or a reversed range with a 400', () => {
    expect(logRangeOf({ start_timestamp: now - 31 * DAY + 1, end_timestamp: now }, now, 'ru').start).toBe(
      now - 31 * DAY + 1,
    );
    for (const filters of [
      { start_timestamp: now - 31 * DAY, end_timestamp: now },
      { start_timestamp: now, end_timestamp: now - 1 },
    ]) {
      const refusal = (() => {
        try {
          logRangeOf(filters, now, 'ru');
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(AppException);
      expect((refusal as AppException).getStatus()).toBe(400);
    }
  });

  it("words the refusal in the caller's language", () => {
    const tooLong = { start_timestamp: now - 31 * DAY, end_timestamp: now };
    expect(() => logRangeOf(tooLong, now, 'ru')).toThrow('Период должен быть короче 31 дня');
    expect(() => logRangeOf(tooLong, now, 'en')).toThrow('The time range must be under 31 days');
  });
});
