import type { FakeUpstreamKeys } from './fake-upstream.options';
import type { Reply } from './fake-upstream.reply';

export type IncomingHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What the server needs from a provider family besides its routes: its auth check and error shape. */
export interface ProviderFamily {
  name: 'openai' | 'azure' | 'anthropic' | 'gemini';
  /** The provider's own error reply when the key is missing or wrong; null when the request may go on. */
  authenticate(headers: IncomingHeaders, query: URLSearchParams, keys: FakeUpstreamKeys): Reply | null;
  /** The provider's error shape for a status, with its usual message unless one is given. */
  error(status: number, message?: string): Reply;
}

export function headerValue(headers: IncomingHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Masks a presented key the way OpenAI echoes it back: enough to recognise, not to reuse. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 3)}****${key.slice(-4)}`;
}
