import type { ChatMessageKey } from '../message-keys';

/** Russian, the default language. */
export const ru: Record<ChatMessageKey, string> = {
  chat_not_found: 'Чат не найден',
  no_model_available: 'Сейчас для чата нет доступной модели',
  model_not_offered: 'Модель {model} недоступна в чате',
  nothing_to_answer: 'Пока нет сообщения, на которое можно ответить',
  message_empty: 'Сообщение пустое',
  image_url_refused: 'Адрес изображения ведёт в диапазон {range}, который этот сервис не разрешает',
};
