import fc from 'fast-check';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import { MetricsService } from '@tollgate/platform';
import { anAdmission } from '../../test/support/admission';
import { bodyBuiltFor } from '../../test/support/built-request';
import { aCallContext, aModelPrice } from '../../test/support/fixtures';
import { aMetering, silentLogger } from '../../test/support/metering';
import { RecordingReply } from '../../test/support/recording-reply';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import * as priceBook from '../pricing/price-book';
import { IN_DOLLARS } from '../pricing/call-cost';
import { supportedChannelTypes } from '../providers';
import { ChatRelay } from './chat-relay';
import { RelayMetrics } from './relay-metrics';
import type { UpstreamDispatcher } from './upstream-dispatcher';

/** A balance below this many reservations is tight (metering.ts). */
const TIGHT_BALANCE_CALLS = 64;
const BODY_BYTES = 200;

/** Ends the call once its upstream request is built: only what would be sent is looked at. */
class Sent extends Error {}

type Body = Record<string, unknown>;
const limitOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * The output tokens the upstream may generate and bill for the request relay built: every answer
 * (choices, candidates) up to the limit the upstream reads; Infinity when it reads none.
 */
function outputAllowedBy(channelType: number, body: Body): number {
  if (channelType === CHANNEL_TYPES.anthropic) return body['max_tokens'] as number;
  if (channelType === CHANNEL_TYPES.gemini) {
    const config = (body['generationConfig'] ?? {}) as Body;
    const limit = limitOf(config['maxOutputTokens']);
    return limit === undefined ? Infinity : limit * (limitOf(config['candidateCount']) ?? 1);
  }
  // OpenAI's own API (and Azure's) may read either field; a compatible provider reads max_tokens alone.
  const readsBoth = channelType === CHANNEL_TYPES.openai || channelType === CHANNEL_TYPES.azure;
  const fields = readsBoth ? [body['max_completion_tokens'], body['max_tokens']] : [body['max_tokens']];
  const limits = fields.map(limitOf).filter((limit) => limit !== undefined);
  return limits.length === 0 ? Infinity : Math.max(...limits) * (limitOf(body['n']) ?? 1);
}

// Half the calls name no limit: what relay does then is most of what is under test.
const aLimit = fc.option(fc.integer({ min: 1, max: 40_000 }), { nil: undefined, freq: 2 });
const aCall = fc.record({
  channelType: fc.constantFrom(...supportedChannelTypes()),
  maxTokens: aLimit,
  maxCompletionTokens: aLimit,
  n: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 2 }),
  effort: fc.option(fc.constantFrom('none', 'minimal', 'low', 'medium', 'high'), { nil: undefined, freq: 2 }),
  continuesToolCall: fc.boolean(),
  stream: fc.boolean(),
  webChat: fc.boolean(),
  defaultMaxOutputTokens: fc.constantFrom(256, 1_024, 4_096, 8_192),
  // From nothing to many calls' worth of the most expensive answer (quota units: 1 = $0.000002).
  balance: fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 50_000_000 })),
});

type GeneratedCall = typeof aCall extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(call: GeneratedCall): Body {
  const messages: unknown[] = [{ role: 'user', content: 'what is the weather' }];
  if (call.continuesToolCall)
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 't1', content: 'sunny' },
    );
  const body: Body = { model: 'gpt', messages };
  if (call.maxTokens !== undefined) body['max_tokens'] = call.maxTokens;
  if (call.maxCompletionTokens !== undefined) body['max_completion_tokens'] = call.maxCompletionTokens;
  if (call.n !== undefined) body['n'] = call.n;
  if (call.effort !== undefined) body['reasoning_effort'] = call.effort;
  if (call.stream) body['stream'] = true;
  return body;
}

describe('what relay reserves for a chat call, against what it lets the upstream generate', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reserves at least the output any channel is sent, and sends no limit only above a tight balance', async () => {
    const price = aModelPrice('gpt', { contextWindow: 200_000 });
    await fc.assert(
      fc.asyncProperty(aCall, async (call) => {
        const estimates = jest.spyOn(priceBook, 'estimateQuota');
        let sent: Body | undefined;
        const dispatch = jest.fn(async (...args: unknown[]) => {
          sent = bodyBuiltFor(args, call.channelType, 'm');
          throw new Sent();
        });
        const metrics = new RelayMetrics(new MetricsService('relay-reserved-output-test'));
        const relay = new ChatRelay({
          ...anAdmission([price]),
          metering: aMetering({
            quotaOf: () => call.balance,
            metrics,
            costTerms: IN_DOLLARS,
            defaultMaxOutputTokens: call.defaultMaxOutputTokens,
          }),
          dispatcher: { dispatch } as unknown as UpstreamDispatcher,
          metrics,
          logger: silentLogger,
          tokens: { countTextTokens: () => 1, countPromptTokens: () => 10 },
          now: () => 0,
        });
        const context = aCallContext(call.webChat ? { reportsCharge: true } : {});
        await relay
          .handle(context, openAiChatProtocol, { body: bodyOf(call) }, BODY_BYTES, new RecordingReply())
          .catch(() => undefined);
        const reserved = estimates.mock.calls.at(-1);
        const reservedQuota = estimates.mock.results.at(-1)?.value as number | undefined;
        estimates.mockRestore();
        // Refused before anything was built (402, or a request the channel cannot take): nothing sent.
        if (sent === undefined || reserved === undefined || reservedQuota === undefined) return;
        const [quote, input, policy] = reserved;
        const allowed = outputAllowedBy(call.channelType, sent);
        if (allowed === Infinity)
          expect(call.balance).toBeGreaterThanOrEqual(reservedQuota * TIGHT_BALANCE_CALLS);
        else expect(allowed).toBeLessThanOrEqual(priceBook.outputBound(quote, input, policy));
      }),
      { numRuns: 600 },
    );
  });
});
