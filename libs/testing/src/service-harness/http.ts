import { eventually } from './eventually';

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
