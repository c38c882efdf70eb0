// A signed-in browser user talking to /api through the gateway: session cookie plus New-Api-User.

export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/**
 * A browser user: signs in again when the session is gone (a restarted Redis forgets every session,
 * and a person would simply sign in again).
 */
export class WebSession {
  private constructor(
    readonly baseUrl: string,
    readonly userId: number,
    private cookie: string,
    private readonly credentials: { username: string; password: string },
  ) {}

  private static async login(
    baseUrl: string,
    credentials: { username: string; password: string },
  ): Promise<{ id: number; cookie: string }> {
    const res = await fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let body: Envelope<{ id: number }> | undefined;
    try {
      body = JSON.parse(text) as Envelope<{ id: number }>;
    } catch {
      body = undefined;
    }
    if (res.status !== 200 || !body?.success)
      throw new Error(
        `sign-in of ${credentials.username}: ${res.status} ${body?.message ?? text.slice(0, 200)}`,
      );
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { id: body.data.id, cookie };
  }

  static async signIn(baseUrl: string, username: string, password: string): Promise<WebSession> {
    const credentials = { username, password };
    const { id, cookie } = await WebSession.login(baseUrl, credentials);
    return new WebSession(baseUrl, id, cookie, credentials);
  }

  /** Signs in again: after a 401, the session was lost. */
  async refresh(): Promise<void> {
    this.cookie = (await WebSession.login(this.baseUrl, this.credentials)).cookie;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      cookie: this.cookie,
      'new-api-user': String(this.userId),
      'content-type': 'application/json',
      ...extra,
    };
  }

  /** The raw answer, for callers that look at the status themselves; signs in again once on a 401. */
  async request(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<Response> {
    const send = () =>
      fetch(`${this.baseUrl}${path}`, {
        method,
        headers: this.headers(),
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    const res = await send();
    if (res.status !== 401) return res;
    await res.body?.cancel();
    await this.refresh();
    return send();
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
