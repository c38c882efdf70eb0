import type { GatewayMessageKey } from '../message-keys';

/** Russian, the default language of /api answers. */
export const ru: Record<GatewayMessageKey, string> = {
  no_route: 'Нет такого адреса: {method} {path}',
  rate_limited: 'Слишком много запросов, попробуйте чуть позже',
  session_unchecked: 'Не удалось проверить сессию',
  service_unavailable: 'Сервис {service} недоступен',
  service_timeout: 'Сервис {service} не ответил вовремя',
  body_too_large: 'Тело запроса больше {limit} байт',
};
