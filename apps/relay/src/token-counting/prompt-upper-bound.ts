import type { ChatCompletionRequest, ContentPart } from '../canonical';
import { imageTokens } from './image-tokens';

const DATA_URL_PREFIX = 'data:';

/** Characters of a `data:…;base64,<payload>` URL's payload; 0 for any other URL. */
function inlinePayloadLength(part: ContentPart): number {
  if (part.type !== 'image_url') return 0;
  const url = (part['image_url'] as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string' || !url.startsWith(DATA_URL_PREFIX)) return 0;
  const comma = url.indexOf(',');
  return comma === -1 ? 0 : url.length - comma - 1;
}

/**
 * At least as many tokens as the chat prompt has, without tokenising it: the reservation needs a
 * safe upper bound, not a count, and tokenising every prompt costs more than the rest of the hot path.
 *
 * Why the body's size bounds the prompt: every o200k_base token stands for at least one byte of
 * UTF-8 text, so a text never has more tokens than bytes. The client's JSON body (whatever its
 * dialect) holds every text of the prompt at least once, plus keys, quotes and brackets that
 * outweigh OpenAI's fixed overheads (3 tokens per message and its role, 3 to prime the reply, the
 * rendered tool definitions). Images are the exception: their tokens do not come from their bytes,
 * so each adds its estimate (765, or 85 at low detail), and the base64 payload of an inline image,
 * which is in the body but costs no text tokens, is taken off again.
 */
export function promptTokensUpperBound(bodyBytes: number, request: ChatCompletionRequest): number {
  let bound = bodyBytes;
  for (const message of request.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) bound += imageTokens(part) - inlinePayloadLength(part);
  }
  return Math.max(bound, 0);
}
