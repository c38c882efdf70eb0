/** Every message chat answers a person with; the texts are in locales/, one file per language. */
export const CHAT_MESSAGE_KEYS = [
  'chat_not_found',
  'no_model_available',
  'model_not_offered',
  'nothing_to_answer',
  'message_empty',
  'image_url_refused',
] as const;
export type ChatMessageKey = (typeof CHAT_MESSAGE_KEYS)[number];
