import { randomInt } from 'node:crypto';

export interface Answer {
  status: number;
  body: { success: boolean; message: string; data?: unknown };
  headers: Headers;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A client address of its own, so one scenario's per-address limits never touch another's (or another run's). */
export const aClientAddress = (): string =>
  `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** One JSON call; the address is what the balancer in front of the gateway would forward. */
export async function callJson(
  baseUrl: string,
  path: string,
  address: string,
  options: CallOptions = {},
): Promise<Answer> {
  const hasBody = options.body !== undefined;
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (hasBody ? 'POST' : 'GET'),
    headers: {
      'x-forwarded-for': address,
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as Answer['body'], headers: response.headers };
  } catch {
    throw new Error(`${path} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
}

export interface BrowserCallOptions extends CallOptions {
  /** New-Api-User to send instead of the signed-in user's id; `null` sends none. */
  newApiUser?: string | null;
}

/**
 * What the web client does: keeps the cookies the gateway sets (HttpOnly ones included, as a
 * browser does without showing them to scripts) and names the signed-in user in New-Api-User.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();
  /** The signed-in user's id, which the web client keeps after signing in and sends as New-Api-User. */
  userId: number | undefined;
  /** Every Set-Cookie header seen, newest last, to check the attributes. */
  readonly setCookies: string[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly language = 'en-US,en;q=0.9',
    readonly address = aClientAddress(),
  ) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async call(path: string, options: BrowserCallOptions = {}): Promise<Answer> {
    const { newApiUser, ...rest } = options;
    const userHeader = newApiUser === undefined ? this.userId?.toString() : (newApiUser ?? undefined);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await callJson(this.baseUrl, path, this.address, {
      ...rest,
      headers: {
        'accept-language': this.language,
        ...(cookie ? { cookie } : {}),
        ...(userHeader === undefined ? {} : { 'new-api-user': userHeader }),
        ...options.headers,
      },
    });
    this.keepCookies(answer.headers.getSetCookie());
    return answer;
  }

  /** Signs in with a password; on success the browser is this user's. */
  async signIn(username: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await this.call('/api/user/login', { body: { username, password }, headers });
    if (answer.status === 200) this.userId = (answer.body.data as { id: number }).id;
    return answer;
  }

  private keepCookies(setCookies: string[]): void {
    for (const header of setCookies) {
      this.setCookies.push(header);
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const split = pair.indexOf('=');
      const name = pair.slice(0, split);
      const value = pair.slice(split + 1);
      const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
