import { z } from 'zod';
import { baseServiceConfig, envInt, secret } from '@tollgate/platform';
import { trustedProxiesProblem } from './client/client-address';
import { unixSocketPathOf } from './proxy/backend-pools';

/** A backend's base URL: http(s)://host:port, or `unix:<absolute path>` for its Unix socket here (LISTEN_PATH). */
const serviceUrl = z
  .string()
  .refine(
    (url) => unixSocketPathOf(url)?.startsWith('/') ?? (/^https?:\/\//i.test(url) && URL.canParse(url)),
    { message: 'must be a URL like http://127.0.0.1:3001 or unix:/path/to/service.sock' },
  );

export const gatewayConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('gateway'),
  PORT: baseServiceConfig.PORT.default('3000'),
  AUTH_URL: serviceUrl,
  BILLING_URL: serviceUrl,
  RELAY_URL: serviceUrl,
  CHAT_URL: serviceUrl,
  ADMIN_URL: serviceUrl,
  REDIS_URL: secret(z.string().url().optional()),
  /** The built web app (apps/web/dist); served at / when set and present. */
  WEB_DIST_DIR: z.string().optional(),
  /** Largest request body on /v1 and /v1beta (images and long contexts travel there). */
  GATEWAY_BODY_LIMIT_BYTES: envInt().pipe(z.number().min(1024)).default('10485760'),
  /** Largest audio upload (/v1/audio/transcriptions, /translations): the relay's 25 MB file limit and the form. */
  GATEWAY_UPLOAD_BODY_LIMIT_BYTES: envInt()
    .pipe(z.number().min(1024))
    .default(String(26 * 1024 * 1024)),
  /**
   * Largest request body on /api. Keep it at or under the services' own limit (1 MiB): then the gateway
   * answers 413 itself instead of streaming a body the service would refuse half-way.
   */
  GATEWAY_API_BODY_LIMIT_BYTES: envInt().pipe(z.number().min(1024)).default('1048576'),
  /**
   * Requests per minute per client IP on this gateway instance, of /api calls and of model API calls
   * that name no API key; 0 turns the limit off.
   */
  GATEWAY_RATE_LIMIT_PER_MINUTE: envInt().pipe(z.number().min(0)).default('6000'),
  /**
   * Requests per minute per client IP on this gateway instance, of model API calls (/v1, /v1beta) that
   * name an API key; 0 (the default) sets none. Those are limited per key and per user by relay (the
   * groups' limits): a client sending many calls from one address, as a company's egress does, is not
   * capped by the address.
   */
  GATEWAY_V1_RATE_LIMIT_PER_MINUTE: envInt().pipe(z.number().min(0)).default('0'),
  /**
   * How long a live session looked up in auth is trusted without asking again; a logout takes
   * effect within this. At most 2 s.
   */
  GATEWAY_SESSION_CACHE_MS: envInt().pipe(z.number().min(0).max(2000)).default('1000'),
  /** Keep-alive connections per backend service. */
  GATEWAY_BACKEND_CONNECTIONS: envInt().pipe(z.number().min(1)).default('128'),
  /**
   * How long auth, billing and admin may take to begin an answer before the caller gets 504; 0 waits
   * for ever. Their answers (exports too) begin at once, so only a frozen or wedged service hits it.
   */
  GATEWAY_BACKEND_HEADERS_TIMEOUT_MS: envInt().pipe(z.number().int().min(0)).default('60000'),
  /**
   * The same for relay and chat, whose answers to a non-streamed call begin only when the model has
   * finished: above relay's own worst case (queue wait, then up to three upstream attempts of
   * RELAY_UPSTREAM_HEADERS_TIMEOUT_MS each).
   */
  GATEWAY_MODEL_HEADERS_TIMEOUT_MS: envInt().pipe(z.number().int().min(0)).default('960000'),
  /** Comma-separated origins allowed to call the API from a browser; empty = same origin only. */
  CORS_ORIGINS: z.string().default(''),
  /**
   * Comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal) of the balancer
   * in front, whose X-Forwarded-For/-Proto are believed; empty = the connecting peer is the client.
   */
  GATEWAY_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .superRefine((list, ctx) => {
      const problem = trustedProxiesProblem(list);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    }),
});
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
