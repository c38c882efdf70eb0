import ruCommon from '../locales/ru/common.json';
import ruShell from '../locales/ru/shell.json';
import ruSession from '../locales/ru/session.json';
import ruAuth from '../locales/ru/auth.json';
import ruLanding from '../locales/ru/landing.json';
import ruDashboard from '../locales/ru/dashboard.json';
import ruTokens from '../locales/ru/tokens.json';
import ruActivity from '../locales/ru/activity.json';
import ruPayment from '../locales/ru/payment.json';
import ruSettings from '../locales/ru/settings.json';
import ruPricing from '../locales/ru/pricing.json';
import ruDocs from '../locales/ru/docs.json';
import ruSite from '../locales/ru/site.json';
import ruIncidents from '../locales/ru/incidents.json';
import enCommon from '../locales/en/common.json';
import enShell from '../locales/en/shell.json';
import enSession from '../locales/en/session.json';
import enAuth from '../locales/en/auth.json';
import enLanding from '../locales/en/landing.json';
import enDashboard from '../locales/en/dashboard.json';
import enTokens from '../locales/en/tokens.json';
import enActivity from '../locales/en/activity.json';
import enPayment from '../locales/en/payment.json';
import enSettings from '../locales/en/settings.json';
import enPricing from '../locales/en/pricing.json';
import enDocs from '../locales/en/docs.json';
import enSite from '../locales/en/site.json';
import enIncidents from '../locales/en/incidents.json';

/** One namespace per feature; every language lists the same namespaces (checked by locales.spec.ts). */
export const resources = {
  ru: {
    common: ruCommon,
    shell: ruShell,
    session: ruSession,
    auth: ruAuth,
    landing: ruLanding,
    dashboard: ruDashboard,
    tokens: ruTokens,
    activity: ruActivity,
    payment: ruPayment,
    settings: ruSettings,
    pricing: ruPricing,
    docs: ruDocs,
    site: ruSite,
    incidents: ruIncidents,
  },
  en: {
    common: enCommon,
    shell: enShell,
    session: enSession,
    auth: enAuth,
    landing: enLanding,
    dashboard: enDashboard,
    tokens: enTokens,
    activity: enActivity,
    payment: enPayment,
    settings: enSettings,
    pricing: enPricing,
    docs: enDocs,
    site: enSite,
    incidents: enIncidents,
  },
} as const;

export const NAMESPACES = Object.keys(resources.ru) as (keyof (typeof resources)['ru'])[];
