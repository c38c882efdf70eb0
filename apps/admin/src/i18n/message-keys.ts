/** Every message admin answers an operator with; the texts are in locales/, one file per language. */
export const ADMIN_MESSAGE_KEYS = [
  'channel_not_found',
  'channel_base_url_required',
  'version_not_found',
  'version_exists',
  'incident_not_found',
  'incident_resolved_while_open',
  'incident_resolved_before_start',
  'incident_too_many_updates',
] as const;
export type AdminMessageKey = (typeof ADMIN_MESSAGE_KEYS)[number];
