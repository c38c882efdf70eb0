import type { Incident } from './incident-schema';

/** English readers get the operators' English texts; everyone else (and English where none was written) the default, Russian. */
export const readsEnglish = (language: string): boolean => language.startsWith('en');

/**
 * The incident as a reader of `language` reads it: each text (title, description, every update's)
 * in English when the interface is English and the operators wrote that text in English, else the
 * default text. Field by field, so a translation added later for one update shows where it exists.
 */
export function incidentInLanguage(incident: Incident, language: string): Incident {
  if (!readsEnglish(language)) return incident;
  return {
    ...incident,
    title: incident.title_en || incident.title,
    description: incident.description_en || incident.description,
    updates: incident.updates.map((update) => ({ ...update, text: update.text_en || update.text })),
  };
}
