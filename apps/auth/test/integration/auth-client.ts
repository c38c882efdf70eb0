import { SESSION_COOKIE_NAME } from '@tollgate/contracts';

export interface Answer {
  status: number;
  body: { success: boolean; message: string; data?: Record<string, unknown> };
  headers: Headers;
  setCookie: string[];
  /** The session cookie's value when the answer set one. */
  session: string | undefined;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Sent as is when a string (to send malformed JSON), as JSON otherwise. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (hasBody ? 'POST' : 'GET'),
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
    ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    throw new Error(`${path} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  const setCookie = response.headers.getSetCookie();
  const session = setCookie
    .map((cookie) => new RegExp(`^${SESSION_COOKIE_NAME}=([^;]*)`).exec(cookie)?.[1])
    .find((value) => value !== undefined);
  return { status: response.status, body, headers: response.headers, setCookie, session };
}

export const cookieHeader = (session: string) => ({ cookie: `${SESSION_COOKIE_NAME}=${session}` });
