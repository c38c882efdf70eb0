import { OpenAiChatStream } from '../openai/chat-stream';
import { openAiEmbeddingsBody, parseOpenAiEmbeddings } from '../openai/embeddings';
import { parseOpenAiChatResponse } from '../openai/chat-response';
import { OPENAI_OPERATION_PATHS, OPERATIONS_WITH_STREAM_OPTIONS } from '../openai/operations';
import { openAiUpstreamBody } from '../openai/request-body';
import type { JsonObject } from '../../canonical';
import type { PassThroughOperation, ProviderAdapter } from '../provider-adapter';
import { MissingBaseUrlError, UnsupportedOperationError } from '../provider-errors';
import {
  JSON_CONTENT_TYPE,
  joinUrl,
  type ChannelTarget,
  type UpstreamHttpRequest,
} from '../upstream-request';

/**
 * The api-version of a channel that sets none: the latest generally available data-plane version
 * (chat, tools, images, speech, stream usage). A channel's `api_version` overrides it.
 */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** Azure serves these per deployment; the Responses API lives elsewhere (`/openai/v1`), not here. */
const AZURE_OPERATIONS: ReadonlySet<PassThroughOperation | 'chat.completions'> = new Set([
  'chat.completions',
  'completions',
  'embeddings',
  'images.generations',
  'audio.speech',
]);

function azureRequest(
  operation: PassThroughOperation | 'chat.completions',
  body: JsonObject,
  target: ChannelTarget,
): UpstreamHttpRequest {
  if (!AZURE_OPERATIONS.has(operation)) throw new UnsupportedOperationError('azure', operation);
  if (target.baseUrl.trim() === '') throw new MissingBaseUrlError('azure');
  // The deployment is named in the path; Azure takes the channel's upstream model as the deployment name.
  const deployment = encodeURIComponent(target.upstreamModel);
  const path = `/openai/deployments/${deployment}${OPENAI_OPERATION_PATHS[operation]}`;
  const version = encodeURIComponent(target.apiVersion ?? DEFAULT_AZURE_API_VERSION);
  return {
    method: 'POST',
    url: `${joinUrl(target.baseUrl.trim(), path)}?api-version=${version}`,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'api-key': target.apiKey },
    body: JSON.stringify(
      openAiUpstreamBody(body, {
        upstreamModel: target.upstreamModel,
        forceStreamUsage: OPERATIONS_WITH_STREAM_OPTIONS.has(operation),
      }),
    ),
    stream: body['stream'] === true,
  };
}

export const azureAdapter: ProviderAdapter = {
  family: 'azure',
  name: 'azure',
  buildChatRequest: (request, target) => azureRequest('chat.completions', request, target),
  parseChatResponse: (body) => parseOpenAiChatResponse(body),
  createChatStreamTransformer: () => new OpenAiChatStream(),
  buildPassThroughRequest: (operation, body, target) => azureRequest(operation, body, target),
  embeddings: {
    request: (input, target) =>
      azureRequest('embeddings', openAiEmbeddingsBody(input, target.upstreamModel), target),
    parse: parseOpenAiEmbeddings,
  },
};
