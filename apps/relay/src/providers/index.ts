export { adapterForChannelType, supportedChannelTypes, UnknownChannelTypeError } from './registry';
export type {
  ChatStreamTransformer,
  EmbeddingsAnswer,
  EmbeddingsRequest,
  PassThroughOperation,
  UploadForm,
  UploadOperation,
  ProviderAdapter,
  ProviderFamily,
} from './provider-adapter';
export {
  channelTarget,
  type ChannelTarget,
  type UpstreamHttpRequest,
  type UpstreamUploadRequest,
} from './upstream-request';
export type { NormalizedUsage } from './usage';
export {
  MalformedUpstreamResponseError,
  MissingBaseUrlError,
  UnsupportedOperationError,
  UntranslatableRequestError,
  UpstreamStreamError,
} from './provider-errors';
export {
  OPENAI_STREAM_DONE,
  serializeSseEvent,
  serializeSseJson,
  SseDecoder,
  SseProtocolError,
  type SseEvent,
} from './sse';
export { normalizeOpenAiUsage, toOpenAiUsage } from './openai/usage';
export { upstreamDataOf } from './openai/chat-stream';
export { normalizeAnthropicUsage } from './anthropic/usage';
export { normalizeGeminiUsage } from './gemini/usage';
export type * from './openai/types';
export { fromAnthropicClientRequest } from './anthropic/client-request';
export { toAnthropicClientResponse } from './anthropic/client-response';
export { AnthropicClientStream } from './anthropic/client-stream';
export type * from './anthropic/types';
