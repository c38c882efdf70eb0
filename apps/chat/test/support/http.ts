import { createServer, type AddressInfo } from 'node:net';

/** Polls until `probe` returns something other than undefined; fails with the last error after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
  );
}

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
}

export async function getJson<T = unknown>(
  url: string,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as T };
}

/** Resolves once the service answers 200 on /health/ready. */
export async function waitUntilReady(serviceUrl: string, timeoutMs = 20_000): Promise<void> {
  await eventually(
    `${serviceUrl}/health/ready to answer 200`,
    async () => ((await getJson(`${serviceUrl}/health/ready`)).status === 200 ? true : undefined),
    timeoutMs,
  );
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}
