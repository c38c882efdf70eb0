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
};
