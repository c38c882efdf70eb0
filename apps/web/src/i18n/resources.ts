import ruCommon from '../locales/ru/common.json';
import ruShell from '../locales/ru/shell.json';
import ruSession from '../locales/ru/session.json';
import ruDashboard from '../locales/ru/dashboard.json';
import ruIncidents from '../locales/ru/incidents.json';
import enCommon from '../locales/en/common.json';
import enShell from '../locales/en/shell.json';
import enSession from '../locales/en/session.json';
import enDashboard from '../locales/en/dashboard.json';
import enIncidents from '../locales/en/incidents.json';

/**
 * The namespaces the shell itself paints with (layouts, session, toasts, incident notices), bundled
 * with it. Every other namespace travels in the chunk of the pages that use it and is added when
 * that chunk loads (`./namespaces/`). Both languages always have the same namespaces and keys
 * (checked by locales.spec.ts).
 */
export const resources = {
  ru: {
    common: ruCommon,
    shell: ruShell,
    session: ruSession,
    dashboard: ruDashboard,
    incidents: ruIncidents,
  },
  en: {
    common: enCommon,
    shell: enShell,
    session: enSession,
    dashboard: enDashboard,
    incidents: enIncidents,
  },
} as const;

export const NAMESPACES = Object.keys(resources.ru) as (keyof (typeof resources)['ru'])[];
