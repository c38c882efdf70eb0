export type * from './chat';
export {
  anthropicFieldsOf,
  refuseAnthropicOnlyContent,
  withAnthropicFields,
  type AnthropicFields,
} from './anthropic-fields';
export { isAnswerLimitFitted, MIN_THINKING_BUDGET_TOKENS, withFittedAnswerLimit } from './answer-limit';
export { ChunkBuilder } from './chunk-builder';
export { contentParts, contentText } from './content';
export { parseBase64DataUrl, toBase64DataUrl, type InlineImage } from './data-url';
export { isVector, type EmbeddingsAnswer, type EmbeddingsRequest } from './embeddings';
export { parseToolArguments } from './tool-arguments';
export { MalformedUpstreamResponseError, UntranslatableRequestError } from './translation-errors';
export { rememberUpstreamData, upstreamDataOf } from './upstream-data';
export { normalizeOpenAiUsage, tokenCount, toOpenAiUsage, type NormalizedUsage } from './usage';
