export type DayPart = 'night' | 'morning' | 'afternoon' | 'evening';

/** SPEC §4: 0–6 night, 6–12 morning, 12–18 afternoon, otherwise evening (by the local hour). */
export function dayPartForHour(hour: number): DayPart {
  if (hour >= 0 && hour < 6) return 'night';
  if (hour >= 6 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 18) return 'afternoon';
  return 'evening';
}

export function dayPartNow(now: Date = new Date()): DayPart {
  return dayPartForHour(now.getHours());
}
