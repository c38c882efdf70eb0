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
/** The usage every adapter reports, for callers that meet it only through an adapter. */
export type { NormalizedUsage } from '../canonical';
export { MissingBaseUrlError, UnsupportedOperationError, UpstreamStreamError } from './provider-errors';
