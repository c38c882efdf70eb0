/** How the usage log is trimmed (from the billing configuration). */
export interface RetentionSettings {
  /** Usage rows older than this many days are deleted; 0 keeps them forever. Read at each round: an operator may change it. */
  days: () => number;
  intervalMs: number;
  batchSize: number;
}

export const RETENTION_SETTINGS = Symbol('RETENTION_SETTINGS');

const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment before which usage rows go, or undefined when the log is kept forever. */
export function retentionCutoff(days: number, nowMs: number): Date | undefined {
  return days === 0 ? undefined : new Date(nowMs - days * DAY_MS);
}
