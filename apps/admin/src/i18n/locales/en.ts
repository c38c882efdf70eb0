import type { AdminMessageKey } from '../message-keys';

/** English, written to match the Russian texts. */
export const en: Record<AdminMessageKey, string> = {
  channel_not_found: 'Channel not found',
  channel_base_url_required: 'base_url: is required for this channel type',
  version_not_found: 'Version not found',
  version_exists: 'version: already exists',
  incident_not_found: 'Incident not found',
  incident_resolved_while_open: 'resolved_at is taken only with the status resolved',
  incident_resolved_before_start: 'resolved_at must not be before started_at',
  incident_too_many_updates: 'An incident keeps at most {max} updates: open a new incident instead',
  setting_not_flag: '{key}: must be true or false',
  setting_not_whole_number: '{key}: must be a whole number',
  setting_not_decimal: '{key}: must be a number with at most {decimals} decimals',
  setting_below_min: '{key}: must be at least {min}',
  setting_above_max: '{key}: must be at most {max}',
  setting_not_mailbox: '{key}: must be an address like Tollgate <no-reply@example.com>',
  setting_not_http_address: '{key}: must be an http(s) address',
  setting_not_one_word: '{key}: must be one word of at most {max_length} characters',
  setting_not_json_like: '{key}: must be JSON like {example}',
  setting_json_field_invalid: '{key}: {field} is not valid',
};
