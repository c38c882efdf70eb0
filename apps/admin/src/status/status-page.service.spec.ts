import type { IncidentView } from '@tollgate/contracts';
import { computeStatusPage } from './status-page.service';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** 2026-11-25 12:00 Moscow (09:00 UTC). */
const NOW = Date.UTC(2026, 10, 25, 9, 0, 0) / 1000;
/** 2026-11-25 00:00 Moscow. */
const TODAY = Date.UTC(2026, 10, 24, 21, 0, 0) / 1000;
const WINDOW_START = TODAY - 89 * DAY;
const ELAPSED = NOW - WINDOW_START;

let nextId = 1;
function anIncident(overrides: Partial<IncidentView>): IncidentView {
  return {
    id: nextId++,
    title: 'incident',
    description: '',
    status: 'investigating',
    severity: 'major',
    components: ['api'],
    updates: [],
    started_at: NOW - HOUR,
    resolved_at: 0,
    created_time: NOW - HOUR,
    updated_time: NOW - HOUR,
    ...overrides,
  };
}
const resolved = (start: number, end: number, overrides: Partial<IncidentView> = {}) =>
  anIncident({ status: 'resolved', started_at: start, resolved_at: end, ...overrides });

const expectedUptime = (downSeconds: number, total = ELAPSED) =>
  Math.floor(((total - downSeconds) * 100_000) / total) / 1000;

describe('status page', () => {
  it('is all operational with 100% uptime and 90 Moscow days when nothing happened', () => {
    const page = computeStatusPage([], NOW);
    expect(page.overall).toBe('operational');
    expect(page.components.map((c) => [c.component, c.state, c.uptime_percent])).toEqual([
      ['api', 'operational', 100],
      ['chat', 'operational', 100],
      ['payments', 'operational', 100],
      ['web', 'operational', 100],
    ]);
    const days = page.components[0]!.days;
    expect(days).toHaveLength(90);
    expect(days[0]!.date).toBe('2026-08-28');
    expect(days.at(-1)).toEqual({ date: '2026-11-25', uptime_percent: 100, worst_state: 'operational' });
  });

  it('gives each component the worst state of its open incidents: minor degrades, major and critical are outages', () => {
    const page = computeStatusPage(
      [
        anIncident({ severity: 'minor', components: ['chat'] }),
        anIncident({ severity: 'critical', components: ['api', 'chat'], status: 'identified' }),
        anIncident({ severity: 'minor', components: ['payments'], status: 'monitoring' }),
        resolved(NOW - 2 * HOUR, NOW - HOUR, { components: ['web'], severity: 'critical' }),
      ],
      NOW,
    );
    expect(Object.fromEntries(page.components.map((c) => [c.component, c.state]))).toEqual({
      api: 'outage',
      chat: 'outage',
      payments: 'degraded',
      web: 'operational',
    });
    expect(page.overall).toBe('outage');
    expect(page.open_incidents).toHaveLength(3);
    expect(page.past_incidents).toHaveLength(1);
  });

  it('counts the union of major and critical incidents as downtime, overlaps once, minor ones not at all', () => {
    const page = computeStatusPage(
      [
        resolved(NOW - 10 * DAY, NOW - 10 * DAY + 6 * HOUR, { severity: 'major' }),
        // Overlaps the first by two hours: four more hours of outage.
        resolved(NOW - 10 * DAY + 4 * HOUR, NOW - 10 * DAY + 10 * HOUR, { severity: 'critical' }),
        resolved(NOW - 5 * DAY, NOW - 4 * DAY, { severity: 'minor' }),
        // Open for the last hour.
        anIncident({ severity: 'critical', started_at: NOW - HOUR }),
      ],
      NOW,
    );
    const api = page.components.find((c) => c.component === 'api')!;
    expect(api.uptime_percent).toBe(expectedUptime(11 * HOUR));
    const chat = page.components.find((c) => c.component === 'chat')!;
    expect(chat.uptime_percent).toBe(100);
  });

  it('gives each day its own uptime and worst state', () => {
    // 22:00 to 02:00 Moscow across the night from the 20th to the 21st of November.
    const start = Date.UTC(2026, 10, 20, 19, 0, 0) / 1000;
    const page = computeStatusPage(
      [
        resolved(start, start + 4 * HOUR, { severity: 'critical', components: ['payments'] }),
        resolved(NOW - 3 * DAY, NOW - 3 * DAY + HOUR, { severity: 'minor', components: ['payments'] }),
      ],
      NOW,
    );
    const days = page.components.find((c) => c.component === 'payments')!.days;
    const day = (date: string) => days.find((d) => d.date === date);
    expect(day('2026-11-20')).toEqual({
      date: '2026-11-20',
      uptime_percent: expectedUptime(2 * HOUR, DAY),
      worst_state: 'outage',
    });
    expect(day('2026-11-21')).toMatchObject({ uptime_percent: expectedUptime(2 * HOUR, DAY) });
    expect(day('2026-11-22')).toEqual({ date: '2026-11-22', uptime_percent: 100, worst_state: 'degraded' });
    expect(day('2026-11-19')).toMatchObject({ uptime_percent: 100, worst_state: 'operational' });
  });

  it('takes an incident naming no component as one of the whole service', () => {
    const page = computeStatusPage([anIncident({ components: [], severity: 'minor' })], NOW);
    expect(page.components.every((c) => c.state === 'degraded')).toBe(true);
  });

  it('clips incidents to the window and leaves out those resolved before it', () => {
    const page = computeStatusPage(
      [
        resolved(WINDOW_START - 10 * DAY, WINDOW_START - 9 * DAY),
        resolved(WINDOW_START - DAY, WINDOW_START + 2 * HOUR, { severity: 'critical' }),
        // An open incident logged as starting in the future has not started yet.
        anIncident({ started_at: NOW + DAY }),
      ],
      NOW,
    );
    expect(page.past_incidents).toHaveLength(1);
    const api = page.components.find((c) => c.component === 'api')!;
    expect(api.uptime_percent).toBe(expectedUptime(2 * HOUR));
    expect(api.days[0]).toMatchObject({
      uptime_percent: expectedUptime(2 * HOUR, DAY),
      worst_state: 'outage',
    });
    expect(api.state).toBe('operational');
  });

  it('shows an open incident that has not started yet without changing any state until it starts', () => {
    const announced = anIncident({ severity: 'critical', components: [], started_at: NOW + 2 * HOUR });
    const before = computeStatusPage([announced], NOW);
    expect(before.overall).toBe('operational');
    expect(before.components.map((c) => c.state)).toEqual([
      'operational',
      'operational',
      'operational',
      'operational',
    ]);
    expect(before.open_incidents).toEqual([announced]);
    const after = computeStatusPage([announced], NOW + 3 * HOUR);
    expect(after.overall).toBe('outage');
  });

  it("measures today's uptime over the part of today already gone", () => {
    const page = computeStatusPage([anIncident({ severity: 'critical', started_at: NOW - 3 * HOUR })], NOW);
    const today = page.components[0]!.days.at(-1)!;
    expect(today.uptime_percent).toBe(expectedUptime(3 * HOUR, NOW - TODAY));
  });
});
