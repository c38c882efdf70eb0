import type { Incident } from './incident-schema';

/** What a reader of an open incident's notice needs now: the newest words the operators wrote. */
export interface LatestIncidentText {
  /** Markdown. */
  text: string;
  /**
   * Epoch seconds of the timeline update the text comes from; null for the incident's description
   * and for the timeline's opening entry, written with the incident at its start (the notice
   * already says when it started).
   */
  updatedAt: number | null;
}

/**
 * The text of the newest timeline update that has one (a bare status change adds none), else the
 * description: an incident reported as 'investigating' and later 'fix deployed, monitoring' reads as
 * the latter.
 */
export function latestIncidentText(incident: Pick<Incident, 'description' | 'updates'>): LatestIncidentText {
  const index = incident.updates.findLastIndex((step) => step.text.trim() !== '');
  if (index < 0) return { text: incident.description, updatedAt: null };
  const update = incident.updates[index];
  return { text: update.text, updatedAt: index === 0 ? null : update.created_at };
}
