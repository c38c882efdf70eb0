import {
  chargeQuota,
  chatStreamEventSchema,
  NEW_CHAT_TITLE,
  parseChatMessageMetadata,
  type ChatMessageView,
  type ChatStreamEvent,
  type ChatView,
  type Page,
} from '@tollgate/contracts';
import { eventually, FAKE_UPSTREAM_PRICE } from '@tollgate/testing';
import { COST_LOOKUP_WINDOW_MS } from '../../src/chats/stopped-answer-costs';
import { ANSWER_CHUNKS, ChatHarness, type ChatUser } from './chat-harness';

jest.setTimeout(120_000);

/** The events of a whole SSE answer body. */
function eventsOf(text: string): ChatStreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => chatStreamEventSchema.parse(JSON.parse(block.slice('data: '.length))));
}

interface LogRow {
  token_name: string;
  quota: number;
  model_name: string;
  completion_tokens: number;
}

/**
 * On real infrastructure only: the embedded integration tier serves every test database from one
 * PGlite connection per worker, which five services cannot share. The embedded platform (PGlite per
 * service, in-process bus, memory store) is covered through `npm start` by e2e/chat-embedded.spec.ts.
 */
describe('the online chat on real infrastructure', () => {
  const harness = new ChatHarness('real', 'chat-it');
  const CANARY = `canary-${Math.random().toString(36).slice(2)}-never-stored-in-plaintext`;

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  const newChat = async (user: ChatUser): Promise<ChatView> => {
    const created = await user.call<ChatView>('/api/chat', { body: { model: harness.model } });
    expect(created.status).toBe(200);
    return created.body.data!;
  };
  /** The user's calls in the usage log (the balance set by the test is a row of its own). */
  const usageLog = async (user: ChatUser): Promise<LogRow[]> =>
    ((await user.call<Page<LogRow>>('/api/log/self?p=1&page_size=50')).body.data?.items ?? []).filter(
      (row) => row.model_name === harness.model,
    );

  /** Asks for an answer, stops it (as the browser does) after five pieces, and waits for it to be stored. */
  const stoppedAnswer = async (user: ChatUser, chat: ChatView): Promise<ChatMessageView> => {
    const stop = new AbortController();
    const res = await user.send(chat.id, { content: 'A long answer, please' }, stop.signal);
    const reader = res.body!.getReader();
    let seen = '';
    while ((seen.match(/"type":"delta"/g) ?? []).length < 5)
      seen += Buffer.from((await reader.read()).value!).toString();
    stop.abort();
    return eventually('the stopped answer to be stored', async () => {
      const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
      return history.find((m) => m.role === 'assistant');
    });
  };

  it('streams an answer through the gateway, stores both messages, and charges exactly the answer’s cost', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    expect(chat.title).toBe(NEW_CHAT_TITLE);

    const res = await user.send(chat.id, { content: `Tell me a story about ${CANARY}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = eventsOf(await res.text());
    expect(events[0]!.type).toBe('start');
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`the answer ended with ${JSON.stringify(done)}`);
    const metadata = parseChatMessageMetadata(done.message.metadata);
    expect(metadata).toMatchObject({
      model: harness.model,
      completion_tokens: ANSWER_CHUNKS,
      finish_reason: 'stop',
    });
    expect(metadata.quota).toBeGreaterThan(0);
    expect(done.message.content).toBe(deltas.map((d) => (d.type === 'delta' ? d.content : '')).join(''));

    const history = await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`);
    expect(history.body.data!.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(history.body.data![0]!.content).toBe(`Tell me a story about ${CANARY}`);

    const [row] = await eventually('the usage log row of the answer', async () => {
      const rows = await usageLog(user);
      return rows.length ? rows : undefined;
    });
    expect(row).toMatchObject({
      token_name: `chat #${chat.id}`,
      quota: metadata.quota,
      model_name: harness.model,
    });
    await eventually('the balance to move by the answer’s cost', async () =>
      (await harness.balance(user)) === 50_000_000 - metadata.quota! ? true : undefined,
    );

    const title = await user.call<{ title: string }>(`/api/chat/${chat.id}/title`);
    expect(title.status).toBe(200);
    expect(title.body.data!.title).not.toBe(NEW_CHAT_TITLE);
    const listed = await user.call<Page<ChatView>>('/api/chat/?page=1&page_size=20');
    expect(listed.body.data!.items.map((c) => [c.id, c.title])).toEqual([[chat.id, title.body.data!.title]]);
  });

  it('stores and charges as complete an answer whose upstream broke its connection after the last event', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    harness.upstream.setOptions({ breakAfterEnd: true });
    let events: ChatStreamEvent[];
    try {
      events = eventsOf(await (await user.send(chat.id, { content: 'Hello there' })).text());
    } finally {
      harness.upstream.setOptions({ breakAfterEnd: false });
    }
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`the answer ended with ${JSON.stringify(done)}`);
    const metadata = parseChatMessageMetadata(done.message.metadata);
    expect(metadata).toMatchObject({ completion_tokens: ANSWER_CHUNKS, finish_reason: 'stop' });
    expect(metadata.error).toBeUndefined();
    expect(metadata.quota).toBeGreaterThan(0);
    const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    const [row] = await eventually('the usage log row of the answer', async () => {
      const rows = await usageLog(user);
      return rows.length ? rows : undefined;
    });
    expect(row!.quota).toBe(metadata.quota);
  });

  it('stores and charges only what was generated when the browser stops the answer, and lists it with that cost', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    const answer = await stoppedAnswer(user, chat);
    expect(parseChatMessageMetadata(answer.metadata).finish_reason).toBe('aborted');
    expect(String(answer.content).length).toBeGreaterThan(0);
    const [row] = await eventually('the usage log row of the stopped answer', async () => {
      const rows = await usageLog(user);
      return rows.length ? rows : undefined;
    });
    expect(row!.completion_tokens).toBeGreaterThan(0);
    expect(row!.completion_tokens).toBeLessThan(ANSWER_CHUNKS);
    await eventually('the balance to move by what was generated only', async () =>
      (await harness.balance(user)) === 50_000_000 - row!.quota ? true : undefined,
    );

    // The stream the browser left carried no charge: the list shows the cost billing recorded.
    const listed = await eventually('the stopped answer to be listed with its cost', async () => {
      const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
      const metadata = parseChatMessageMetadata(history.find((m) => m.id === answer.id)!.metadata);
      return typeof metadata.quota === 'number' ? metadata : undefined;
    });
    expect(listed).toMatchObject({
      finish_reason: 'aborted',
      quota: row!.quota,
      completion_tokens: row!.completion_tokens,
    });
    // Written back, so later reads need not ask billing.
    const [stored] = await harness.withChatStopped((query) =>
      query<{ metadata: string }>('select metadata from messages where id = ?', [answer.id]),
    );
    expect(parseChatMessageMetadata(stored!.metadata)).toEqual(listed);
  });

  it('lists a stopped answer billing has not costed long after the stop as of unknown cost, without asking again', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    const answer = await stoppedAnswer(user, chat);
    await eventually('the usage log row of the stopped answer', async () =>
      (await usageLog(user)).length ? true : undefined,
    );
    // As if billing had never recorded the call: the answer without its cost, stored longer ago than
    // billing ever takes. Billing does know the call, so an answer listed with a cost was asked about.
    const uncosted = JSON.stringify({ model: harness.model, quota: null, finish_reason: 'aborted' });
    await harness.withChatStopped((query) =>
      query('update messages set metadata = ?, created_at = ? where id = ?', [
        uncosted,
        new Date(Date.now() - COST_LOOKUP_WINDOW_MS - 60_000),
        answer.id,
      ]),
    );

    const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(parseChatMessageMetadata(history.find((m) => m.id === answer.id)!.metadata)).toEqual({
      model: harness.model,
      quota: null,
      finish_reason: 'aborted',
      cost_unknown: true,
    });
    const [stored] = await harness.withChatStopped((query) =>
      query<{ metadata: string }>('select metadata from messages where id = ?', [answer.id]),
    );
    expect(stored!.metadata).toBe(uncosted);
  });

  it('regenerates the last answer in place', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    await (await user.send(chat.id, { content: 'First question' })).text();
    const again = eventsOf(await (await user.send(chat.id, { regenerate: true })).text());
    expect(again.at(-1)!.type).toBe('done');
    const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    const start = again[0]!;
    expect(start.type === 'start' && start.assistant_message_id).toBe(history[1]!.id);
  });

  it('refuses an empty message, a bad body and an unknown model with nothing written', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    const empty = await user.send(chat.id, { content: '   ' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { success: boolean }).success).toBe(false);
    expect((await user.send(chat.id, { content: 'x', regenerate: true })).status).toBe(400);
    expect((await user.send(chat.id, { content: 'x', model: 'no-such-model' })).status).toBe(404);
    expect((await user.call(`/api/chat`, { body: { model: 'no-such-model' } })).status).toBe(404);
    expect((await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data).toEqual([]);
  });

  it('words its refusals in the caller language: Russian by default, English when asked', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    const english = 'en-US,en;q=0.9';
    const message = async (answer: Response) => ((await answer.json()) as { message: string }).message;

    expect(await message(await user.send(chat.id, { content: '   ' }))).toBe('Сообщение пустое');
    expect(await message(await user.send(chat.id, { content: '   ' }, undefined, english))).toBe(
      'The message is empty',
    );
    expect(await message(await user.send(chat.id, { regenerate: true }))).toBe(
      'Пока нет сообщения, на которое можно ответить',
    );
    expect(await message(await user.send(chat.id, { regenerate: true }, undefined, english))).toBe(
      'There is no message to answer yet',
    );
    const unknownModel = { body: { model: 'no-such-model' } };
    expect((await user.call('/api/chat', unknownModel)).body.message).toBe(
      'Модель no-such-model недоступна в чате',
    );
    expect((await user.call('/api/chat', { ...unknownModel, language: english })).body.message).toBe(
      'The model no-such-model is not offered in the chat',
    );
    expect(await user.call('/api/chat/2147483647')).toMatchObject({
      status: 404,
      body: { message: 'Чат не найден' },
    });
    expect(await user.call('/api/chat/2147483647', { method: 'DELETE', language: english })).toMatchObject({
      status: 404,
      body: { message: 'Chat not found' },
    });
  });

  it('tells a user without balance to top up (402), keeps their message, and answers it once topped up', async () => {
    const user = await harness.user(0);
    const chat = await newChat(user);
    const res = await user.send(chat.id, { content: 'Hello?' });
    expect(res.status).toBe(402);
    const history = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(history.map((m) => m.role)).toEqual(['user']);

    await harness.topUp(user, 50_000_000);
    const continued = eventsOf(await (await user.send(chat.id, { regenerate: true })).text());
    expect(continued.at(-1)!.type).toBe('done');
    const after = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('answers a user whose balance pays for less than the usual answer length, within it, and says so', async () => {
    const { input_price, output_price, cached_input_price } = FAKE_UPSTREAM_PRICE;
    const price = {
      input: input_price,
      output: output_price,
      cached_input: cached_input_price,
      group_ratio: '1',
    };
    // About 1,000 answer tokens after a short question: less than relay's usual 4,096.
    const balance = chargeQuota({ prompt_tokens: 300, completion_tokens: 1_000, cached_tokens: 0 }, price);
    const user = await harness.user(balance);
    const chat = await newChat(user);
    const events = eventsOf(await (await user.send(chat.id, { content: 'Hello?' })).text());
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`the answer ended with ${JSON.stringify(done)}`);
    const metadata = parseChatMessageMetadata(done.message.metadata);
    expect(metadata.answer_limit).toBeGreaterThanOrEqual(1_000);
    expect(metadata.answer_limit).toBeLessThan(4_096);
    expect(metadata).toMatchObject({ completion_tokens: ANSWER_CHUNKS, finish_reason: 'stop' });
    const listed = (await user.call<ChatMessageView[]>(`/api/chat/${chat.id}/messages`)).body.data!;
    expect(parseChatMessageMetadata(listed.at(-1)!.metadata).answer_limit).toBe(metadata.answer_limit);
  });

  it("answers 404 to another user's requests for a chat, never 403", async () => {
    const owner = await harness.user(50_000_000);
    const other = await harness.user(50_000_000);
    const chat = await newChat(owner);
    expect((await other.call(`/api/chat/${chat.id}`)).status).toBe(404);
    expect((await other.call(`/api/chat/${chat.id}/messages`)).status).toBe(404);
    expect((await other.call(`/api/chat/${chat.id}/title`)).status).toBe(404);
    expect(
      (await other.call(`/api/chat/${chat.id}`, { method: 'PUT', body: { title: 'mine' } })).status,
    ).toBe(404);
    expect((await other.send(chat.id, { content: 'hi' })).status).toBe(404);
    expect((await other.call(`/api/chat/${chat.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await owner.call(`/api/chat/${chat.id}`)).status).toBe(200);
  });

  it('renames, changes settings and deletes a chat with its messages', async () => {
    const user = await harness.user(50_000_000);
    const chat = await newChat(user);
    const renamed = await user.call<ChatView>(`/api/chat/${chat.id}`, {
      method: 'PUT',
      body: { title: 'Trip plans', temperature: 0.2, system_prompt: 'Answer briefly.' },
    });
    expect(renamed.body.data).toMatchObject({
      title: 'Trip plans',
      temperature: 0.2,
      system_prompt: 'Answer briefly.',
    });
    await (await user.send(chat.id, { content: 'Where to?' })).text();
    expect((await user.call(`/api/chat/${chat.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await user.call(`/api/chat/${chat.id}/messages`)).status).toBe(404);
  });

  it('keeps no plaintext in the chat database, and forgets a deleted account’s chats and key', async () => {
    const leaving = await harness.user(50_000_000);
    const chat = await newChat(leaving);
    await (await leaving.send(chat.id, { content: `My secret is ${CANARY}` })).text();
    expect((await leaving.call('/api/user/self', { method: 'DELETE' })).status).toBe(200);

    await harness.withChatStopped(async (query) => {
      const tables = ['chats', 'messages', 'user_keys'];
      for (const table of tables) {
        const rows = await query<Record<string, unknown>>(`select * from "${table}"`);
        expect(JSON.stringify(rows)).not.toContain(CANARY);
      }
      const sealed = await query<{ content_sealed: string }>('select content_sealed from messages limit 5');
      for (const row of sealed) expect(row.content_sealed).toMatch(/^v1\./);
    });
    await eventually('the deleted account’s chats and key to be gone', () =>
      harness.withChatStopped(async (query) => {
        const [chats] = await query<{ n: string }>('select count(*) as n from chats where user_id = ?', [
          leaving.id,
        ]);
        const [keys] = await query<{ n: string }>('select count(*) as n from user_keys where user_id = ?', [
          leaving.id,
        ]);
        return Number(chats!.n) === 0 && Number(keys!.n) === 0 ? true : undefined;
      }),
    );
  });
});
