export { countPromptTokens } from './prompt-tokens';
export { countTextTokens } from './text-tokens';
export { IMAGE_TOKENS, LOW_DETAIL_IMAGE_TOKENS } from './image-tokens';
export { promptTokensUpperBound } from './prompt-upper-bound';
