import { FormData } from 'undici';
import type { PassThroughOperation, ProviderAdapter, UploadForm, UploadOperation } from '../provider-adapter';
import { listingFrom, parseDataIds } from '../models-listing';
import { MissingBaseUrlError } from '../provider-errors';
import {
  baseUrlOrDefault,
  JSON_CONTENT_TYPE,
  joinUrl,
  type ChannelTarget,
  type UpstreamHttpRequest,
  type UpstreamUploadRequest,
} from '../upstream-request';
import { OpenAiChatStream } from './chat-stream';
import { parseOpenAiChatResponse } from './chat-response';
import { openAiEmbeddingsBody, parseOpenAiEmbeddings } from './embeddings';
import { OPENAI_OPERATION_PATHS, OPENAI_UPLOAD_PATHS, OPERATIONS_WITH_STREAM_OPTIONS } from './operations';
import { openAiUpstreamBody } from './request-body';
import type { JsonObject } from '../../canonical';

/** What distinguishes one OpenAI-compatible upstream from another. */
export interface OpenAiStyleDescriptor {
  name: string;
  /** Used when the channel leaves base_url empty; absent when the channel must give one. */
  defaultBaseUrl?: string;
  /** Path between the base URL and the operation path, e.g. `/v1`; empty when the base URL includes it. */
  pathPrefix: string;
  auth: 'bearer' | 'none';
  /** False for upstreams that reject `stream_options` (they report stream usage unasked). */
  acceptsStreamOptions: boolean;
}

function rootUrl(descriptor: OpenAiStyleDescriptor, target: ChannelTarget): string {
  if (descriptor.defaultBaseUrl === undefined && target.baseUrl.trim() === '') {
    throw new MissingBaseUrlError(descriptor.name);
  }
  return joinUrl(baseUrlOrDefault(target, descriptor.defaultBaseUrl ?? ''), descriptor.pathPrefix);
}

function headers(descriptor: OpenAiStyleDescriptor, target: ChannelTarget): Record<string, string> {
  const result: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE };
  if (descriptor.auth === 'bearer') result['authorization'] = `Bearer ${target.apiKey}`;
  return result;
}

const OPENAI_PROVIDER_NAME = 'openai';

/** An adapter for any upstream that speaks OpenAI's API: requests get the model mapped, answers pass through. */
export function createOpenAiStyleAdapter(
  descriptor: OpenAiStyleDescriptor,
  family: 'openai' = 'openai',
): ProviderAdapter {
  const build = (
    operation: PassThroughOperation | 'chat.completions',
    body: JsonObject,
    target: ChannelTarget,
  ): UpstreamHttpRequest => ({
    method: 'POST',
    url: joinUrl(rootUrl(descriptor, target), OPENAI_OPERATION_PATHS[operation]),
    headers: headers(descriptor, target),
    body: JSON.stringify(
      openAiUpstreamBody(body, {
        upstreamModel: target.upstreamModel,
        forceStreamUsage: descriptor.acceptsStreamOptions && OPERATIONS_WITH_STREAM_OPTIONS.has(operation),
        limitAsMaxTokens: operation === 'chat.completions' && descriptor.name !== OPENAI_PROVIDER_NAME,
      }),
    ),
    stream: body['stream'] === true,
  });

  const buildUpload = (
    operation: UploadOperation,
    form: UploadForm,
    target: ChannelTarget,
  ): UpstreamUploadRequest => {
    const body = new FormData();
    for (const [name, value] of Object.entries(form.fields))
      body.append(name, name === 'model' ? target.upstreamModel : value);
    body.append('file', form.file.blob, form.file.filename);
    // No content-type of our own: the form's carries its boundary.
    const { 'content-type': _json, ...auth } = headers(descriptor, target);
    return {
      method: 'POST',
      url: joinUrl(rootUrl(descriptor, target), OPENAI_UPLOAD_PATHS[operation]),
      headers: auth,
      body,
      stream: form.fields['stream'] === 'true',
    };
  };

  return {
    family,
    name: descriptor.name,
    modelsListing: listingFrom((target) => {
      const { 'content-type': _json, ...auth } = headers(descriptor, target);
      return { url: joinUrl(rootUrl(descriptor, target), '/models'), headers: auth };
    }, parseDataIds),
    buildChatRequest: (request, target) => build('chat.completions', request, target),
    parseChatResponse: (body) => parseOpenAiChatResponse(body),
    createChatStreamTransformer: () => new OpenAiChatStream(),
    buildPassThroughRequest: (operation, body, target) => build(operation, body, target),
    embeddings: {
      request: (input, target) =>
        build('embeddings', openAiEmbeddingsBody(input, target.upstreamModel), target),
      parse: parseOpenAiEmbeddings,
    },
    buildUploadRequest: buildUpload,
  };
}

export const OPENAI_DESCRIPTOR: OpenAiStyleDescriptor = {
  name: OPENAI_PROVIDER_NAME,
  defaultBaseUrl: 'https://api.openai.com',
  pathPrefix: '/v1',
  auth: 'bearer',
  acceptsStreamOptions: true,
};

export const openAiAdapter: ProviderAdapter = createOpenAiStyleAdapter(OPENAI_DESCRIPTOR);
