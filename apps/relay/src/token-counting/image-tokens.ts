import type { ContentPart } from '../canonical';

/**
 * OpenAI's documented vision cost: 85 tokens at low detail; at high detail 85 plus 170 per 512-pixel
 * tile, 765 for a typical 1024×1024 image. The image's size is unknown here, so every other image
 * counts as that typical one.
 */
export const LOW_DETAIL_IMAGE_TOKENS = 85;
export const IMAGE_TOKENS = 765;

export function imageTokens(part: ContentPart): number {
  if (part.type !== 'image_url') return 0;
  const detail = (part['image_url'] as { detail?: unknown } | undefined)?.detail;
  return detail === 'low' ? LOW_DETAIL_IMAGE_TOKENS : IMAGE_TOKENS;
}
