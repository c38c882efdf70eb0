import type { Incident } from './incident-schema';

/** What a reader of an open incident's notice needs now: the newest words the operators wrote. */
export interface LatestIncidentText {
  /** Markdown. */
  text: string;
  /** Epoch seconds of the timeline update the text comes from; null for the incident's description. */
  updatedAt: number | null;
}

/**
 * The text of the newest timeline update that has one (a bare status change adds none), else the
 * description: an incident reported as 'investigating' and later 'fix deployed, monitoring' reads as
 * the latter.
 */
export function latestIncidentText(incident: Pick<Incident, 'description' | 'updates'>): LatestIncidentText {
  const update = incident.updates.findLast((step) => step.text.trim() !== '');
  return update
    ? { text: update.text, updatedAt: update.created_at }
    : { text: incident.description, updatedAt: null };
}
