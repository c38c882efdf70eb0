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
  setting_not_flag: '{key}: допустимы только true и false',
  setting_not_whole_number: '{key}: нужно целое неотрицательное число',
  setting_not_decimal: '{key}: нужно число, не больше {decimals} знаков после точки',
  setting_below_min: '{key}: не меньше {min}',
  setting_above_max: '{key}: не больше {max}',
  setting_not_mailbox: '{key}: нужен адрес вида Tollgate <no-reply@example.com>',
  setting_not_http_address: '{key}: нужен адрес, начинающийся с http:// или https://',
  setting_not_one_word: '{key}: одно слово без пробелов, не длиннее {max_length} символов',
  setting_not_json_like: '{key}: нужен JSON вида {example}',
  setting_json_field_invalid: '{key}: недопустимое значение {field}',
};
