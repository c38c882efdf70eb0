/** Every key the web app writes to localStorage (SPEC §3 "Stored locally"), in one place. */
export const STORAGE_KEYS = {
  userId: 'tollgate.user_id',
  language: 'tollgate.language',
  defaultCurrency: 'tollgate.default_currency',
  cookieConsent: 'tollgate.cookie_consent',
  dismissedIncidents: 'tollgate.dismissed_incidents',
  dismissedNotice: 'tollgate.dismissed_notice',
  oauthState: (provider: string) => `tollgate.oauth_state.${provider}`,
} as const;
