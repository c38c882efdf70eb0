import type { GenerationResult } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { BillingUnavailable, type BillingGenerationClient } from '../billing/billing-generation.client';
import type { Message } from '../messages/message.entity';
import type { ChatsRepository } from './chats.repository';
import { COST_LOOKUP_WINDOW_MS, MAX_LOOKUPS_PER_READ, StoppedAnswerCosts } from './stopped-answer-costs';

const USER = 7;
const CHAT = 3;
const SECRET_TEXT = 'v1.sealed-text-of-the-answer';
/** The time of the reads; the messages were stored half a minute before unless a test says otherwise. */
const NOW = new Date('2026-11-29T01:00:00Z');

function aMessage(
  id: number,
  role: Message['role'],
  metadata: object,
  createdAt = new Date(NOW.getTime() - 30_000),
): Message {
  return {
    id,
    chatId: CHAT,
    role,
    contentSealed: SECRET_TEXT,
    metadata: JSON.stringify(metadata),
    createdAt,
  } as Message;
}
const question = (id: number) => aMessage(id, 'user', {});
const stopped = (id: number, createdAt?: Date) =>
  aMessage(id, 'assistant', { model: 'm', quota: null, finish_reason: 'aborted' }, createdAt);

function aGeneration(requestId: string, quota: number): GenerationResult {
  return {
    id: requestId,
    request_id: requestId,
    model: 'm',
    upstream_model: 'm',
    token_id: null,
    created_at: 1,
    prompt_tokens: 11,
    completion_tokens: 5,
    cached_tokens: 0,
    quota,
    latency_ms: 10,
    ttft_ms: 5,
    is_stream: true,
    status: 'client_aborted',
    finish_reason: null,
  };
}

/** Billing as a function of the request id; the calls it was asked, the metadata written back, the warnings. */
function costsWith(answer: (requestId: string) => Promise<GenerationResult | undefined>) {
  const asked: { userId: number; requestId: string }[] = [];
  const written: { id: number; metadata: string }[] = [];
  const warnings: unknown[][] = [];
  const billing = {
    generation: (userId: number, requestId: string) => {
      asked.push({ userId, requestId });
      return answer(requestId);
    },
  } as unknown as BillingGenerationClient;
  const store = {
    setMetadata: async (id: number, metadata: string) => void written.push({ id, metadata }),
  } as unknown as ChatsRepository;
  const logger = { warn: (...args: unknown[]) => void warnings.push(args) } as unknown as Logger;
  return { costs: new StoppedAnswerCosts(billing, store, logger), asked, written, warnings };
}

const metadataOf = (message: Message) => JSON.parse(message.metadata) as Record<string, unknown>;

describe('StoppedAnswerCosts', () => {
  it("fills a stopped answer's cost and tokens from billing's record of its request, and writes them back", async () => {
    const { costs, asked, written } = costsWith(async (requestId) => aGeneration(requestId, 4_200));
    const listed = await costs.fill(USER, [question(1), stopped(2)], NOW);

    expect(asked).toEqual([{ userId: USER, requestId: `chat-${CHAT}-2` }]);
    expect(metadataOf(listed[1]!)).toEqual({
      model: 'm',
      finish_reason: 'aborted',
      quota: 4_200,
      prompt_tokens: 11,
      completion_tokens: 5,
    });
    expect(written).toEqual([{ id: 2, metadata: listed[1]!.metadata }]);
    expect(listed[0]).toEqual(question(1));
  });

  it('asks billing about nothing but stopped answers whose cost is unknown', async () => {
    const { costs, asked } = costsWith(async (requestId) => aGeneration(requestId, 1));
    const known = aMessage(2, 'assistant', { quota: 900, finish_reason: 'aborted' });
    const complete = aMessage(4, 'assistant', { quota: 1_000, finish_reason: 'stop' });
    const failed = aMessage(6, 'assistant', { quota: null, finish_reason: 'error', error: 'broke off' });
    const messages = [question(1), known, question(3), complete, question(5), failed];

    expect(await costs.fill(USER, messages, NOW)).toBe(messages);
    expect(asked).toEqual([]);
  });

  it('serves a stopped answer as it is while billing does not know its call yet', async () => {
    const { costs, written, warnings } = costsWith(async () => undefined);
    const listed = await costs.fill(USER, [question(1), stopped(2)], NOW);
    expect(listed).toEqual([question(1), stopped(2)]);
    expect(written).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('serves the list as it is when billing cannot be reached, with a warning that names no text', async () => {
    const { costs, written, warnings } = costsWith(async () => {
      throw new BillingUnavailable('status 503');
    });
    const listed = await costs.fill(USER, [question(1), stopped(2)], NOW);
    expect(listed).toEqual([question(1), stopped(2)]);
    expect(written).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).not.toContain(SECRET_TEXT);
  });

  it('asks about the stopped answers at once, and about the newest few only', async () => {
    const pending: (() => void)[] = [];
    const { costs, asked } = costsWith(
      (requestId) => new Promise((resolve) => pending.push(() => resolve(aGeneration(requestId, 10)))),
    );
    const messages = Array.from({ length: MAX_LOOKUPS_PER_READ + 2 }, (_, i) => [
      question(10 * i + 1),
      stopped(10 * i + 2),
    ]).flat();

    const listing = costs.fill(USER, messages, NOW);
    await new Promise((resolve) => setImmediate(resolve));
    // Every lookup is under way before any is answered.
    expect(asked).toHaveLength(MAX_LOOKUPS_PER_READ);
    expect(asked.map((call) => call.requestId)).toEqual(
      messages
        .filter((m) => m.role === 'assistant')
        .slice(-MAX_LOOKUPS_PER_READ)
        .map((m) => `chat-${CHAT}-${m.id}`),
    );
    for (const answer of pending) answer();
    const listed = await listing;
    expect(listed.filter((m) => metadataOf(m).quota === 10)).toHaveLength(MAX_LOOKUPS_PER_READ);
  });

  it('asks no more about an answer stored longer ago than billing takes, and lists it as of unknown cost', async () => {
    const { costs, asked, written } = costsWith(async (requestId) => aGeneration(requestId, 1));
    const longAgo = new Date(NOW.getTime() - COST_LOOKUP_WINDOW_MS - 1_000);
    const justInside = new Date(NOW.getTime() - COST_LOOKUP_WINDOW_MS + 1_000);
    const listed = await costs.fill(
      USER,
      [question(1), stopped(2, longAgo), question(3), stopped(4, justInside)],
      NOW,
    );

    expect(asked).toEqual([{ userId: USER, requestId: `chat-${CHAT}-4` }]);
    expect(metadataOf(listed[1]!)).toEqual({
      model: 'm',
      quota: null,
      finish_reason: 'aborted',
      cost_unknown: true,
    });
    expect(metadataOf(listed[3]!)).toMatchObject({ quota: 1 });
    // Not written: the rule is applied on each read, and the stored answer stays as it was.
    expect(written.map((write) => write.id)).toEqual([4]);
  });
});
