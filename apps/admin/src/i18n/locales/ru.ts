import type { AdminMessageKey } from '../message-keys';

/** Russian, the default language (the admin area's own; the SPEC names none of these). */
export const ru: Record<AdminMessageKey, string> = {
  channel_not_found: 'Канал не найден',
  channel_base_url_required: 'base_url: для канала этого типа нужен адрес API',
  version_not_found: 'Версия не найдена',
  version_exists: 'version: такая версия уже есть',
  incident_not_found: 'Инцидент не найден',
  incident_resolved_while_open: 'resolved_at: время устранения указывается только со статусом resolved',
  incident_resolved_before_start: 'resolved_at: сбой не может быть устранён раньше, чем начался',
  incident_too_many_updates: 'У инцидента не больше {max} обновлений: откройте новый инцидент',
};
