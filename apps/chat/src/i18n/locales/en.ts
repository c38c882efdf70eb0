import type { ChatMessageKey } from '../message-keys';

/** English, written to match the Russian texts. */
export const en: Record<ChatMessageKey, string> = {
  chat_not_found: 'Chat not found',
  no_model_available: 'No model is available for the chat right now',
  model_not_offered: 'The model {model} is not offered in the chat',
  nothing_to_answer: 'There is no message to answer yet',
  message_empty: 'The message is empty',
  image_url_refused: 'An image URL points into a {range} address range, which this service does not allow',
};
