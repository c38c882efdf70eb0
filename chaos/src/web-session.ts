// A signed-in browser user talking to /api through the gateway: session cookie plus New-Api-User.

export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

export class WebSession {
  private constructor(
    readonly baseUrl: string,
    readonly userId: number,
    private readonly cookie: string,
  ) {}

  static async signIn(baseUrl: string, username: string, password: string): Promise<WebSession> {
    const res = await fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await res.json()) as Envelope<{ id: number }>;
    if (res.status !== 200 || !body.success)
      throw new Error(`sign-in of ${username}: ${res.status} ${body.message}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return new WebSession(baseUrl, body.data.id, cookie);
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      cookie: this.cookie,
      'new-api-user': String(this.userId),
      'content-type': 'application/json',
      ...extra,
    };
  }

  /** The raw answer, for callers that look at the status themselves. */
  request(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: this.headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  /** The envelope's data; anything but 200 with success is an error naming the call. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body);
    const text = await res.text();
    let envelope: Envelope<T> | undefined;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      envelope = undefined;
    }
    if (res.status !== 200 || !envelope?.success)
      throw new Error(`${method} ${path}: ${res.status} ${envelope?.message ?? text.slice(0, 300)}`);
    return envelope.data;
  }
}

/** Retries `attempt` until it resolves or `timeoutMs` passed (the platform may still be catching up). */
export async function eventually<T>(
  what: string,
  attempt: () => Promise<T>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await attempt();
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  throw new Error(`${what}: still failing after ${timeoutMs} ms: ${(last as Error)?.message ?? last}`);
}
