import type { FormData } from 'undici';
import type { CatalogChannel } from '@tollgate/contracts';

/** Where and how one channel is called: the parts of a channel an adapter needs. */
export interface ChannelTarget {
  /** The channel's base URL; empty means the provider's default. */
  baseUrl: string;
  apiKey: string;
  /** The model name the upstream knows, after the channel's model mapping. */
  upstreamModel: string;
  /** Azure's `api-version`; other families ignore it. */
  apiVersion?: string;
}

/** The target of one call through a channel, with its decrypted key and the mapped model. */
export function channelTarget(channel: CatalogChannel, apiKey: string, upstreamModel: string): ChannelTarget {
  const apiVersion = channel.api_version?.trim() ?? '';
  return {
    baseUrl: channel.base_url,
    apiKey,
    upstreamModel,
    ...(apiVersion === '' ? {} : { apiVersion }),
  };
}

/** A fully built upstream HTTP call; the body is already serialised JSON. */
export interface UpstreamHttpRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Whether the answer is a server-sent event stream. */
  stream: boolean;
}

/** A file upload: the form's file part is a Blob backed by a file on disk, streamed by undici. */
export interface UpstreamUploadRequest extends Omit<UpstreamHttpRequest, 'body'> {
  body: FormData;
}

export const JSON_CONTENT_TYPE = 'application/json';

/** Joins a base URL and a path without doubling or dropping the slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const tail = path.startsWith('/') ? path : `/${path}`;
  return `${base}${tail}`;
}

export function baseUrlOrDefault(target: ChannelTarget, defaultBaseUrl: string): string {
  return target.baseUrl.trim() === '' ? defaultBaseUrl : target.baseUrl.trim();
}
