/** A provider's API answered with an error or not at all: the call may be retried later. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';

  constructor(
    message: string,
    /** The HTTP status the provider answered with, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A JSON call to a provider's API with a deadline; non-2xx answers and network failures become ProviderUnavailableError. */
export async function callProviderJson(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch (error) {
    throw new ProviderUnavailableError(
      `${init.method} ${new URL(url).pathname}: ${(error as Error).message}`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new ProviderUnavailableError(
      `${init.method} ${new URL(url).pathname} answered HTTP ${response.status}`,
      response.status,
    );
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderUnavailableError(`${init.method} ${new URL(url).pathname} answered no JSON`);
  }
}
