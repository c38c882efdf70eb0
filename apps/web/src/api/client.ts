import type { Envelope } from '@tollgate/contracts';
import { ApiError } from './api-error';
import { retryDelayMs, shouldRetry } from './retry-policy';
import { InvalidUserIdError, readStoredUserId } from '../features/session/user-id-store';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: QueryParams;
  body?: unknown;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** The signed-in user's id, null when signed out; throws InvalidUserIdError for a bad stored id. */
  readUserId: () => number | null;
  /** Called when a call made as a signed-in user answers 401 (SPEC §6: the user is signed out). */
  onUnauthorized: () => void;
  /** The interface language, sent as Accept-Language so server messages come in it. */
  readLanguage?: () => string;
}

export interface ApiClient {
  /** A successful answer's envelope (`success` is true; `data` may be absent). */
  send<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<Envelope<T>>;
  /** A successful answer's data; an answer without data is a `rejected` ApiError. */
  data<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** A file answer (CSV export): the body as a Blob; an error status is an `http` ApiError. */
  file(path: string, options?: RequestOptions): Promise<Blob>;
}

export const API_BASE = '/api';

function buildUrl(path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function readEnvelope(response: Response): Promise<Envelope<unknown> | null> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && 'success' in body) return body as Envelope<unknown>;
    return null;
  } catch {
    return null;
  }
}

/** The single client for `/api` (SPEC §6–9): credentials, New-Api-User, retries, 401 sign-out. */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  /** Sends with the retry policy; answers the final response and who it was sent as. */
  async function exchange(
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    accept: string,
  ): Promise<{ response: Response; userId: number | null }> {
    let userId: number | null;
    try {
      userId = deps.readUserId();
    } catch (error) {
      if (error instanceof InvalidUserIdError) throw new ApiError('invalid_user_id', error.message);
      throw error;
    }
    const headers: Record<string, string> = { Accept: accept };
    if (userId !== null) headers['New-Api-User'] = String(userId);
    const language = deps.readLanguage?.();
    if (language) headers['Accept-Language'] = language;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    };
    const url = buildUrl(path, options.query);

    for (let retriesDone = 0; ; retriesDone++) {
      let response: Response;
      try {
        response = await deps.fetch(url, init);
      } catch (error) {
        throw new ApiError('network', error instanceof Error ? error.message : '');
      }
      if (shouldRetry(response.status, retriesDone)) {
        await deps.sleep(retryDelayMs(retriesDone));
        continue;
      }
      if (response.status === 401 && userId !== null) deps.onUnauthorized();
      return { response, userId };
    }
  }

  async function send<T>(
    method: HttpMethod,
    path: string,
    options: RequestOptions = {},
  ): Promise<Envelope<T>> {
    const { response } = await exchange(method, path, options, 'application/json');
    const envelope = await readEnvelope(response);
    if (!response.ok) throw new ApiError('http', envelope?.message ?? '', response.status);
    if (!envelope) throw new ApiError('network', '', response.status);
    if (!envelope.success) throw new ApiError('rejected', envelope.message ?? '', response.status);
    return envelope as Envelope<T>;
  }

  return {
    send,
    async data<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T> {
      const envelope = await send<T>(method, path, options);
      if (envelope.data === undefined || envelope.data === null) {
        throw new ApiError('rejected', envelope.message ?? '');
      }
      return envelope.data;
    },
    async file(path: string, options: RequestOptions = {}): Promise<Blob> {
      const { response } = await exchange('GET', path, options, 'text/csv, application/json');
      if (!response.ok) {
        const envelope = await readEnvelope(response);
        throw new ApiError('http', envelope?.message ?? '', response.status);
      }
      return response.blob();
    },
  };
}

const unauthorizedHandlers = new Set<() => void>();

/** Registers what happens when the server says the session is gone; returns the unregister function. */
export function onUnauthorized(handler: () => void): () => void {
  unauthorizedHandlers.add(handler);
  return () => unauthorizedHandlers.delete(handler);
}

/** The app's client: the browser's fetch and the stored user id. */
export const api: ApiClient = createApiClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  readUserId: () => readStoredUserId(),
  onUnauthorized: () => unauthorizedHandlers.forEach((handler) => handler()),
  readLanguage: () => document.documentElement.lang,
});
