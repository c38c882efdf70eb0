// What each API client sends. A profile is a fixed rotation of call shapes, so that the money checks
// cover every reservation path relay has (answers × n, a call naming no limit, an Anthropic channel's
// thinking, cache writes, a tight balance) under every fault. Pure: no I/O.
import type { CallKind } from './checks';

export const MODEL = 'gpt-4o-mini';
/** Dearer than MODEL, so that the tight-balance client spends its balance within the run. */
export const DEAR_MODEL = 'gpt-4o';
/** Served by the run's Anthropic channel (billing's seeded price). */
export const CLAUDE_MODEL = 'claude-haiku-4-5';

/**
 * `openai`: plain and streamed chat completions with a small max_tokens (the suite's original load).
 * `reservations`: n = 2 and calls naming no limit, plain and streamed.
 * `anthropic`: Anthropic's /v1/messages (plain, streamed, a cached system prompt, extended thinking)
 * and an OpenAI-dialect call with reasoning_effort and no limit on the Anthropic channel.
 * `tight`: a small balance that reaches zero during the run, no top-ups (see seed.ts).
 */
export const PROFILES = ['openai', 'reservations', 'anthropic', 'tight'] as const;
export type Profile = (typeof PROFILES)[number];

/** Profiles of the `--clients` customers, in turn; the tight-balance client comes on top of them. */
export const ROTATING_PROFILES: readonly Profile[] = ['openai', 'reservations', 'anthropic'];

export interface PlannedCall {
  kind: CallKind;
  /** What makes this call's reservation special (`n=2`, `no limit`, …): the report counts by it. */
  shape: string;
  path: '/v1/chat/completions' | '/v1/messages';
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * A system prompt long enough for a cache breakpoint (Anthropic caches from 1,024 tokens). `epoch`
 * changes it, so that the fake upstream writes the cache again (a write is charged at the write price).
 */
export function cachedSystemPrompt(epoch: number): string {
  const sentence = `Chaos cache epoch ${epoch}: the quick brown fox jumps over the lazy dog. `;
  return sentence.repeat(110);
}

/** A cache epoch lasts this many cached calls of one client: one write, then reads. */
const CALLS_PER_CACHE_EPOCH = 6;

function openAi(apiKey: string, shape: string, body: Record<string, unknown>): PlannedCall {
  return {
    kind: body['stream'] === true ? 'stream' : 'plain',
    shape,
    path: '/v1/chat/completions',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body,
  };
}

function anthropic(apiKey: string, shape: string, body: Record<string, unknown>): PlannedCall {
  return {
    kind: body['stream'] === true ? 'messages-stream' : 'messages',
    shape,
    path: '/v1/messages',
    headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body,
  };
}

/** The `n`-th call (from 0) of a client with this profile. */
export function planCall(profile: Profile, apiKey: string, n: number, clientName: string): PlannedCall {
  const messages = [{ role: 'user', content: `chaos call ${n} of ${clientName}` }];
  switch (profile) {
    case 'openai': {
      const stream = n % 2 === 1;
      return openAi(apiKey, 'max_tokens', {
        model: MODEL,
        messages,
        max_tokens: 16,
        ...(stream ? { stream: true } : {}),
      });
    }
    case 'reservations':
      switch (n % 4) {
        case 0:
          return openAi(apiKey, 'n=2', { model: MODEL, messages, n: 2, max_tokens: 16 });
        case 1:
          return openAi(apiKey, 'no limit', { model: MODEL, messages, stream: true });
        case 2:
          return openAi(apiKey, 'n=2, no limit', { model: MODEL, messages, n: 2 });
        default:
          return openAi(apiKey, 'n=2, no limit', { model: MODEL, messages, n: 2, stream: true });
      }
    case 'anthropic':
      switch (n % 5) {
        case 0:
          return anthropic(apiKey, 'max_tokens', { model: CLAUDE_MODEL, messages, max_tokens: 16 });
        case 1:
          return anthropic(apiKey, 'max_tokens', {
            model: CLAUDE_MODEL,
            messages,
            max_tokens: 16,
            stream: true,
          });
        case 2:
          return anthropic(apiKey, 'cache_control', {
            model: CLAUDE_MODEL,
            system: [
              {
                type: 'text',
                text: cachedSystemPrompt(Math.floor(n / 5 / CALLS_PER_CACHE_EPOCH)),
                cache_control: { type: 'ephemeral' },
              },
            ],
            messages,
            max_tokens: 16,
          });
        case 3:
          return anthropic(apiKey, 'thinking', {
            model: CLAUDE_MODEL,
            messages,
            max_tokens: 1100,
            thinking: { type: 'enabled', budget_tokens: 1024 },
            stream: true,
          });
        default:
          // OpenAI's dialect on the Anthropic channel: relay reserves 4,096 plus the thinking budget.
          return openAi(apiKey, 'reasoning_effort, no limit', {
            model: CLAUDE_MODEL,
            messages,
            reasoning_effort: 'low',
          });
      }
    case 'tight':
      switch (n % 4) {
        case 0:
          return openAi(apiKey, 'tight: no limit', { model: DEAR_MODEL, messages });
        case 1:
          return openAi(apiKey, 'tight: max_tokens', {
            model: DEAR_MODEL,
            messages,
            max_tokens: 16,
            stream: true,
          });
        case 2:
          return openAi(apiKey, 'tight: n=2', { model: DEAR_MODEL, messages, n: 2, max_tokens: 16 });
        default:
          return openAi(apiKey, 'tight: no limit', { model: DEAR_MODEL, messages, stream: true });
      }
  }
}

/** Whether the body that arrived is the whole answer of a call of this kind. */
export function isWholeAnswer(kind: CallKind, body: string): boolean {
  switch (kind) {
    case 'plain':
      return parsedHas(body, (json) => Array.isArray(json['choices']));
    case 'stream':
      return body.includes('data: [DONE]');
    case 'messages':
      return parsedHas(body, (json) => json['type'] === 'message' && Array.isArray(json['content']));
    case 'messages-stream':
      return body.includes('"type":"message_stop"');
    case 'chat':
      return body.includes('"type":"done"');
  }
}

function parsedHas(body: string, test: (json: Record<string, unknown>) => boolean): boolean {
  try {
    const json: unknown = JSON.parse(body);
    return typeof json === 'object' && json !== null && test(json as Record<string, unknown>);
  } catch {
    return false;
  }
}
