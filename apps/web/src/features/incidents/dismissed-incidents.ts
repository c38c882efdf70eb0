import { STORAGE_KEYS } from '../../lib/local-storage-keys';
import type { Incident } from './incidents-api';

/** A dismissal holds for the incident as it was: any update (new status, new text) shows it again. */
export const incidentNoticeKey = (incident: Pick<Incident, 'id' | 'updated_time'>): string =>
  `${incident.id}:${incident.updated_time}`;

/** How many dismissals are kept; older ones belong to incidents long resolved. */
const KEPT_DISMISSALS = 50;

export function readDismissedIncidents(storage: Storage = localStorage): string[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(STORAGE_KEYS.dismissedIncidents) ?? '[]');
    return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

export function dismissIncident(key: string, storage: Storage = localStorage): string[] {
  const kept = [...readDismissedIncidents(storage).filter((k) => k !== key), key].slice(-KEPT_DISMISSALS);
  storage.setItem(STORAGE_KEYS.dismissedIncidents, JSON.stringify(kept));
  return kept;
}
