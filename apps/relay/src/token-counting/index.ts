export { countPromptTokens } from './prompt-tokens';
export { countTextTokens } from './text-tokens';
export { IMAGE_TOKENS, LOW_DETAIL_IMAGE_TOKENS } from './image-tokens';
export {
  IMAGE_TOKENS_BOUND,
  mediaTokensBeyondCount,
  promptTokensUpperBound,
  UNSIZED_PART_TOKENS_BOUND,
} from './prompt-upper-bound';
