import { dayPartForHour, dayPartNow } from './greeting';

describe('greeting by local hour', () => {
  it.each([
    [0, 'night'],
    [5, 'night'],
    [6, 'morning'],
    [11, 'morning'],
    [12, 'afternoon'],
    [17, 'afternoon'],
    [18, 'evening'],
    [23, 'evening'],
  ] as const)('hour %i is %s', (hour, part) => {
    expect(dayPartForHour(hour)).toBe(part);
  });

  it('uses the local hour of the given moment', () => {
    expect(dayPartNow(new Date(2025, 0, 1, 7, 30))).toBe('morning');
    expect(dayPartNow(new Date(2025, 0, 1, 23, 59))).toBe('evening');
  });
});
