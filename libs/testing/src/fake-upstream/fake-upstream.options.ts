import { z } from 'zod';

/** API keys the fake accepts, one per provider family, each checked in the header that provider uses. */
export interface FakeUpstreamKeys {
  /** `Authorization: Bearer <key>` on /v1/* (OpenAI). */
  openai: string;
  /** `api-key: <key>` on /openai/deployments/* (Azure OpenAI). */
  azure: string;
  /** `x-api-key: <key>` on /v1/messages* (Anthropic). */
  anthropic: string;
  /** `x-goog-api-key: <key>` or `?key=<key>` on /v1beta/models/* (Gemini). */
  gemini: string;
}

export const DEFAULT_FAKE_UPSTREAM_KEYS: Readonly<FakeUpstreamKeys> = Object.freeze({
  openai: 'sk-fake-openai-key',
  azure: 'fake-azure-key',
  anthropic: 'sk-ant-fake-anthropic-key',
  gemini: 'fake-gemini-key',
});

/** Behaviour that can be changed while the server runs (see `FakeUpstream.setOptions`). */
export interface FakeUpstreamBehaviour {
  /** Delay before the first byte of every provider response. */
  latencyMs: number;
  /** Number of content chunks in a stream (capped by the number of generated tokens). */
  chunks: number;
  /** Gap between two content chunks of a stream. */
  chunkMs: number;
  /** Tokens generated per answer (lowered by the request's max-tokens field when that is smaller). */
  completionTokens: number;
  /** HTTP status of injected failures, answered in the provider's error shape. */
  failStatus: number;
  /** Share of requests (0..1) answered with `failStatus`: exactly every 1/rate-th request fails. */
  failRate: number;
  /** Value of the Retry-After header on injected 429s. */
  retryAfterSeconds: number;
  /** Destroy the socket after this many content chunks of a stream; null streams to the end. */
  dropAfter: number | null;
  /**
   * Send every stream whole (its closing frames too: finish reason, usage, `[DONE]`), then destroy
   * the socket instead of ending the response: the client reads the complete answer, then a body cut
   * short. `dropAfter`, when it cuts the stream earlier, wins.
   */
  breakAfterEnd: boolean;
  /** Length of embedding vectors when the request gives no `dimensions`. */
  embeddingDimensions: number;
  /** Model ids listed by the models endpoints. */
  models: string[];
  keys: FakeUpstreamKeys;
}

export interface ResolvedFakeUpstreamOptions extends FakeUpstreamBehaviour {
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** How long `close()` lets open responses finish before cutting their connections. */
  closeGraceMs: number;
}

export type FakeUpstreamOptions = Partial<Omit<ResolvedFakeUpstreamOptions, 'keys'>> & {
  keys?: Partial<FakeUpstreamKeys>;
};

export type FakeUpstreamBehaviourPatch = Partial<Omit<FakeUpstreamBehaviour, 'keys'>> & {
  keys?: Partial<FakeUpstreamKeys>;
};

export const DEFAULT_FAKE_UPSTREAM_MODELS: readonly string[] = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-4.1-mini',
  'text-embedding-3-small',
  'dall-e-3',
  'tts-1',
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'gemini-2.5-flash',
  'gemini-2.5-pro',
];

const httpStatus = z.number().int().min(400).max(599);
const nonNegativeInt = z.number().int().min(0);

const keysSchema = z
  .object({
    openai: z.string().min(1),
    azure: z.string().min(1),
    anthropic: z.string().min(1),
    gemini: z.string().min(1),
  })
  .strict();

const behaviourShape = {
  latencyMs: nonNegativeInt,
  chunks: z.number().int().min(1),
  chunkMs: nonNegativeInt,
  completionTokens: z.number().int().min(1).max(100_000),
  failStatus: httpStatus,
  failRate: z.number().min(0).max(1),
  retryAfterSeconds: nonNegativeInt,
  dropAfter: nonNegativeInt.nullable(),
  breakAfterEnd: z.boolean(),
  embeddingDimensions: z.number().int().min(1).max(16_384),
  models: z.array(z.string().min(1)).min(1),
  keys: keysSchema,
};

const resolvedSchema = z
  .object({
    ...behaviourShape,
    port: z.number().int().min(0).max(65_535),
    host: z.string().min(1),
    closeGraceMs: nonNegativeInt,
  })
  .strict();

const behaviourSchema = z.object(behaviourShape).strict();

export const DEFAULT_FAKE_UPSTREAM_OPTIONS: Readonly<ResolvedFakeUpstreamOptions> = Object.freeze({
  port: 0,
  host: '127.0.0.1',
  closeGraceMs: 1_000,
  latencyMs: 0,
  chunks: 16,
  chunkMs: 0,
  completionTokens: 16,
  failStatus: 500,
  failRate: 0,
  retryAfterSeconds: 1,
  dropAfter: null,
  breakAfterEnd: false,
  embeddingDimensions: 1536,
  models: [...DEFAULT_FAKE_UPSTREAM_MODELS],
  keys: { ...DEFAULT_FAKE_UPSTREAM_KEYS },
});

export interface OptionIssue {
  /** Option name, e.g. `latencyMs` or `keys.openai`. */
  option: string;
  message: string;
}

export class InvalidFakeUpstreamOptionsError extends Error {
  readonly issues: readonly OptionIssue[];

  constructor(zodIssues: readonly z.ZodIssue[]) {
    const issues = zodIssues.map((issue) => ({
      option: issue.path.join('.') || '(root)',
      message: issue.message,
    }));
    super(
      `invalid fake-upstream options: ${issues.map((issue) => `${issue.option}: ${issue.message}`).join('; ')}`,
    );
    this.name = 'InvalidFakeUpstreamOptionsError';
    this.issues = issues;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function resolveFakeUpstreamOptions(options: FakeUpstreamOptions = {}): ResolvedFakeUpstreamOptions {
  const merged = {
    ...DEFAULT_FAKE_UPSTREAM_OPTIONS,
    ...withoutUndefined(options),
    keys: { ...DEFAULT_FAKE_UPSTREAM_OPTIONS.keys, ...withoutUndefined(options.keys ?? {}) },
  };
  const parsed = resolvedSchema.safeParse(merged);
  if (!parsed.success) throw new InvalidFakeUpstreamOptionsError(parsed.error.issues);
  return parsed.data;
}

export function applyBehaviourPatch(
  current: FakeUpstreamBehaviour,
  patch: FakeUpstreamBehaviourPatch,
): FakeUpstreamBehaviour {
  const merged = {
    ...current,
    ...withoutUndefined(patch),
    keys: { ...current.keys, ...withoutUndefined(patch.keys ?? {}) },
  };
  const parsed = behaviourSchema.safeParse(merged);
  if (!parsed.success) throw new InvalidFakeUpstreamOptionsError(parsed.error.issues);
  return parsed.data;
}

export function behaviourOf(options: ResolvedFakeUpstreamOptions): FakeUpstreamBehaviour {
  const { port: _port, host: _host, closeGraceMs: _closeGraceMs, ...behaviour } = options;
  return behaviour;
}
