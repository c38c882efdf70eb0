import { Injectable } from '@nestjs/common';
import {
  MOSCOW_UTC_OFFSET_SECONDS,
  STATUS_COMPONENTS,
  STATUS_PAGE_DAYS,
  type ComponentState,
  type ComponentStatus,
  type IncidentView,
  type StatusComponent,
  type StatusDay,
  type StatusPage,
} from '@tollgate/contracts';
import { IncidentsRepository } from '../incidents/incidents.repository';
import { view } from '../incidents/incidents.service';

const DAY = 86_400;
const STATE_RANK: Record<ComponentState, number> = { operational: 0, degraded: 1, outage: 2 };
const worse = (a: ComponentState, b: ComponentState) => (STATE_RANK[b] > STATE_RANK[a] ? b : a);

/** A minor incident degrades what it touches; a major or critical one is an outage. */
const stateOf = (incident: IncidentView): ComponentState =>
  incident.severity === 'minor' ? 'degraded' : 'outage';

/** An incident that names no component is about the whole service. */
const affects = (incident: IncidentView, component: StatusComponent) =>
  incident.components.length === 0 || incident.components.includes(component);

interface Span {
  start: number;
  end: number;
  state: ComponentState;
}

/** Seconds of [from, to) covered by the union of the spans (sorted by start). */
function coveredSeconds(spans: readonly Span[], from: number, to: number): number {
  let covered = 0;
  let reached = from;
  for (const span of spans) {
    const start = Math.max(span.start, reached);
    const end = Math.min(span.end, to);
    if (end > start) {
      covered += end - start;
      reached = end;
    }
  }
  return covered;
}

/** Percent of `total` seconds not in `down`, rounded down to 3 decimals (100 when no time passed). */
const uptimePercent = (down: number, total: number) =>
  total <= 0 ? 100 : Math.floor(((total - down) * 100_000) / total) / 1000;

const overlaps = (span: Span, from: number, to: number) =>
  span.start < to && (span.end > from || span.start >= from);

const moscowDate = (epochSeconds: number) =>
  new Date((epochSeconds + MOSCOW_UTC_OFFSET_SECONDS) * 1000).toISOString().slice(0, 10);

/**
 * The public status page from the incident log, at `nowSeconds`.
 *
 * The window is the last {@link STATUS_PAGE_DAYS} Moscow calendar days, today included up to now.
 * Each incident spans from `started_at` to `resolved_at` (to now while it is open), clipped to the
 * window. It touches the components it names, or all of them when it names none. A minor incident
 * makes a component degraded; a major or critical one is an outage.
 *
 * - A component's state is the worst state its open incidents that have started give it
 *   (operational when none).
 * - Uptime is the share of elapsed time covered by no outage: 100 × (elapsed − outage) / elapsed,
 *   where outage is the union of the spans of the major and critical incidents touching the
 *   component (overlapping incidents count once; minor incidents do not count as downtime). It is
 *   given for the whole window and for each day, rounded down to 3 decimals.
 */
export function computeStatusPage(incidents: readonly IncidentView[], nowSeconds: number): StatusPage {
  const todayStart =
    Math.floor((nowSeconds + MOSCOW_UTC_OFFSET_SECONDS) / DAY) * DAY - MOSCOW_UTC_OFFSET_SECONDS;
  const windowStart = todayStart - (STATUS_PAGE_DAYS - 1) * DAY;
  const open = incidents.filter((incident) => incident.status !== 'resolved');
  const past = incidents.filter(
    (incident) => incident.status === 'resolved' && incident.resolved_at >= windowStart,
  );
  const spanOf = (incident: IncidentView): Span => ({
    start: Math.max(incident.started_at, windowStart),
    end: Math.min(incident.status === 'resolved' ? incident.resolved_at : nowSeconds, nowSeconds),
    state: stateOf(incident),
  });

  const components = STATUS_COMPONENTS.map((component): ComponentStatus => {
    const spans = [...open, ...past]
      .filter((incident) => affects(incident, component))
      .map(spanOf)
      .filter((span) => span.start <= span.end && span.start <= nowSeconds)
      .sort((a, b) => a.start - b.start);
    const outages = spans.filter((span) => span.state === 'outage');
    const days = Array.from({ length: STATUS_PAGE_DAYS }, (_, index): StatusDay => {
      const from = windowStart + index * DAY;
      const to = Math.min(from + DAY, nowSeconds);
      return {
        date: moscowDate(from),
        uptime_percent: uptimePercent(coveredSeconds(outages, from, to), to - from),
        worst_state: spans
          .filter((span) => overlaps(span, from, to))
          .reduce<ComponentState>((state, span) => worse(state, span.state), 'operational'),
      };
    });
    return {
      component,
      // An incident announced ahead (started_at still to come) is listed but changes nothing yet,
      // as it is left out of the uptime and the days.
      state: open
        .filter((incident) => affects(incident, component) && incident.started_at <= nowSeconds)
        .reduce<ComponentState>((state, incident) => worse(state, stateOf(incident)), 'operational'),
      uptime_percent: uptimePercent(
        coveredSeconds(outages, windowStart, nowSeconds),
        nowSeconds - windowStart,
      ),
      days,
    };
  });

  return {
    generated_at: nowSeconds,
    overall: components.reduce<ComponentState>((state, c) => worse(state, c.state), 'operational'),
    window_days: STATUS_PAGE_DAYS,
    components,
    open_incidents: open,
    past_incidents: past,
  };
}

/** `GET /api/status/page`: what the public status page shows, computed from the incident log. */
@Injectable()
export class StatusPageService {
  constructor(private readonly incidents: IncidentsRepository) {}

  async page(now: Date = new Date()): Promise<StatusPage> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    // A day earlier than the window's first midnight is always enough to catch every overlap.
    const since = new Date((nowSeconds - (STATUS_PAGE_DAYS + 1) * DAY) * 1000);
    const found = await this.incidents.openOrResolvedSince(since);
    return computeStatusPage(found.map(view), nowSeconds);
  }
}
