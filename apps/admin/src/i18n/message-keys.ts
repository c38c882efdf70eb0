/** Every message admin answers an operator with; the texts are in locales/, one file per language. */
export const ADMIN_MESSAGE_KEYS = [
  // A change done: the envelope's message beside the data.
  'channel_created',
  'channel_updated',
  'channel_deleted',
  'version_created',
  'version_updated',
  'version_deleted',
  'incident_created',
  'incident_updated',
  'incident_deleted',
  'option_saved',
  'channel_not_found',
  'channel_base_url_required',
  'version_not_found',
  'version_exists',
  'incident_not_found',
  'incident_resolved_while_open',
  'incident_resolved_before_start',
  'incident_too_many_updates',
  // A catalogued setting's value refused: `setting_` and the contracts' SettingProblem kind, `{key}` the setting.
  'setting_not_flag',
  'setting_not_whole_number',
  'setting_not_decimal',
  'setting_below_min',
  'setting_above_max',
  'setting_not_mailbox',
  'setting_not_http_address',
  'setting_not_one_word',
  'setting_not_json_like',
  'setting_json_field_invalid',
] as const;
export type AdminMessageKey = (typeof ADMIN_MESSAGE_KEYS)[number];
