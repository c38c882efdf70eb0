export { adapterForChannelType, supportedChannelTypes, UnknownChannelTypeError } from './registry';
export type {
  ChatStreamTransformer,
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
export { MissingBaseUrlError, UnsupportedOperationError, UpstreamStreamError } from './provider-errors';
export { answerLimitSentWithoutClientLimit, answersGenerated } from './answer-limit-sent';
