import { servicePath, type ServiceCall } from '@tollgate/contracts';
import type { z } from 'zod';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner } from './service-token';

export interface ServiceCallOptions {
  /** Values of the call's `:name` path segments. */
  params?: Readonly<Record<string, string | number>>;
  /** Query parameters; undefined ones are left out. */
  query?: Readonly<Record<string, string | number | undefined>>;
  /** Sent as JSON when given. */
  body?: unknown;
  timeoutMs: number;
  /** Cancels the call besides the timeout (e.g. shutdown). */
  signal?: AbortSignal;
}

export interface ServiceAnswer {
  status: number;
  /** The answer's JSON; undefined when it had none or it was not JSON. */
  body: unknown;
}

/**
 * Calls other services' /internal/ routes (ServiceCall in libs/contracts) at one base address, each
 * with a service token for that call's audience. It only carries the call: what a status or a
 * failure means (retry, not found, unavailable) is the caller's to decide.
 */
export class ServiceCaller {
  private readonly signers = new Map<string, ServiceTokenSigner>();

  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
  ) {}

  /** Rejects with fetch's error when the service cannot be reached or the call is cut off. */
  async send(call: ServiceCall, options: ServiceCallOptions): Promise<ServiceAnswer> {
    const url = new URL(servicePath(call, options.params), this.baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { [SERVICE_TOKEN_HEADER]: await this.signer(call).token() };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const response = await fetch(url, {
      method: call.method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }

  private signer(call: ServiceCall): ServiceTokenSigner {
    let signer = this.signers.get(call.audience);
    if (!signer) {
      signer = new ServiceTokenSigner(this.secret, call.audience);
      this.signers.set(call.audience, signer);
    }
    return signer;
  }
}

/**
 * What `schema` reads from an answer: the envelope's `data` (`{success, message, data}`), or the body
 * itself when the service answers bare. Undefined when neither fits.
 */
export function answerData<T>(schema: z.ZodType<T>, body: unknown): T | undefined {
  const enveloped = schema.safeParse((body as { data?: unknown } | null | undefined)?.data);
  if (enveloped.success) return enveloped.data;
  const bare = schema.safeParse(body);
  return bare.success ? bare.data : undefined;
}
