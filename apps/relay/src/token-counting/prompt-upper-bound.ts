import {
  anthropicFieldsOf,
  type ChatCompletionRequest,
  type ChatMessage,
  type ContentPart,
} from '../canonical';
import { imageTokens } from './image-tokens';

const DATA_URL_PREFIX = 'data:';

/**
 * What the reservation holds for one image, whatever its size or detail: Anthropic's documented
 * most (an image is scaled to at most about 1.15 megapixels, width × height / 750 ≈ 1,600 tokens; it
 * has no low detail), above OpenAI's GPT-4o high detail at its largest (85 + 8 tiles × 170 = 1,445).
 */
export const IMAGE_TOKENS_BOUND = 1_600;

/**
 * What the reservation holds for a part whose tokens its bytes do not bound: a PDF (by URL or file id,
 * or base64, whose text is compressed), an OpenAI `file` or audio part. Anthropic documents a PDF at
 * 1,500–3,000 text tokens a page plus the page's image (at most about 1,600), at most 100 pages a
 * request: 100 × (3,000 + 1,600). It is more than any 200k-token context holds, so in effect the
 * reservation holds a full context window (the prompt bound is cut to it): a longer prompt is refused
 * by the upstream and not charged.
 */
export const UNSIZED_PART_TOKENS_BOUND = 100 * (3_000 + IMAGE_TOKENS_BOUND);

/** Characters of a `data:…;base64,<payload>` URL's payload; 0 for any other URL. */
function inlinePayloadLength(part: ContentPart): number {
  if (part.type !== 'image_url') return 0;
  const url = (part['image_url'] as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string' || !url.startsWith(DATA_URL_PREFIX)) return 0;
  const comma = url.indexOf(',');
  return comma === -1 ? 0 : url.length - comma - 1;
}

/** A text document is in the body as text; any other source (base64, url, file) is not. */
function isTextDocument(block: { source?: unknown }): boolean {
  const type = (block.source as { type?: unknown } | undefined)?.type;
  return type === 'text' || type === 'content';
}

/** Tokens reserved for a content part beyond its bytes in the body: 0 for text. */
function partBound(part: ContentPart): number {
  if (part.type === 'text') return 0;
  if (part.type === 'image_url') return IMAGE_TOKENS_BOUND;
  return UNSIZED_PART_TOKENS_BOUND;
}

/**
 * An Anthropic client's tool result kept as it came (images, documents inside): what its blocks
 * cost beyond their bytes. Other tool messages are text.
 */
function keptToolResultBound(message: ChatMessage): number {
  if (message.role !== 'tool') return 0;
  const block = anthropicFieldsOf(message)?.block as { content?: unknown } | undefined;
  if (block === undefined || !Array.isArray(block.content)) return 0;
  let bound = 0;
  for (const inner of block.content as { type?: unknown; source?: unknown }[]) {
    if (inner.type === 'image') bound += IMAGE_TOKENS_BOUND;
    else if (inner.type === 'document' && !isTextDocument(inner)) bound += UNSIZED_PART_TOKENS_BOUND;
  }
  return bound;
}

/**
 * At least as many tokens as the chat prompt has, without tokenising it: the reservation needs a
 * safe upper bound, not a count, and tokenising every prompt costs more than the rest of the hot path.
 *
 * Why the body's size bounds the prompt: every o200k_base token stands for at least one byte of
 * UTF-8 text, so a text never has more tokens than bytes. The client's JSON body (whatever its
 * dialect) holds every text of the prompt at least once, plus keys, quotes and brackets that
 * outweigh OpenAI's fixed overheads (3 tokens per message and its role, 3 to prime the reply, the
 * rendered tool definitions). Images, PDFs and other files are the exception: their tokens do not come
 * from their bytes, so each adds its bound (IMAGE_TOKENS_BOUND, UNSIZED_PART_TOKENS_BOUND), and the
 * base64 payload of an inline image, which is in the body but costs no text tokens, is taken off again.
 */
export function promptTokensUpperBound(bodyBytes: number, request: ChatCompletionRequest): number {
  let bound = bodyBytes;
  for (const message of request.messages) {
    if (message.role === 'tool') bound += keptToolResultBound(message);
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) bound += partBound(part) - inlinePayloadLength(part);
  }
  return Math.max(bound, 0);
}

/**
 * What the prompt's count (countPromptTokens: images at their typical 765 or 85, other parts at
 * nothing) leaves out of the bound of its images, PDFs and files; added to a count the reservation
 * holds instead of the byte bound.
 */
export function mediaTokensBeyondCount(request: ChatCompletionRequest): number {
  let beyond = 0;
  for (const message of request.messages) {
    if (message.role === 'tool') beyond += keptToolResultBound(message);
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) beyond += partBound(part) - imageTokens(part);
  }
  return beyond;
}
