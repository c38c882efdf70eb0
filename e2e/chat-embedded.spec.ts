import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chatStreamEventSchema,
  parseChatMessageMetadata,
  SESSION_COOKIE_NAME,
  type ChatMessageView,
  type ChatStreamEvent,
} from '@tollgate/contracts';
import {
  eventually,
  freePort,
  seedModelThroughAdmin,
  startFakeUpstream,
  type FakeUpstream,
} from '@tollgate/testing';
import { Browser } from './support/accounts-browser';
import { startEmbedded, type EmbeddedRun } from './support/embedded-run';

jest.setTimeout(240_000);

const MODEL = 'embedded-gpt';
const CHUNKS = 40;
const PASSWORD = 'correct-horse-9';
const CANARY = `canary-${randomBytes(8).toString('hex')}-never-stored-in-plaintext`;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

interface LogRow {
  token_name: string;
  model_name: string;
  quota: number;
  completion_tokens: number;
}

/**
 * The online chat on the embedded platform (`npm start`: PGlite per service, the in-process bus, the
 * in-memory store), the infrastructure the integration tier cannot host five services on. The same
 * flows as apps/chat/test/integration/chat.spec.ts on real infrastructure.
 */
describe('the online chat in embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-chat-embedded-'));
  const root = {
    username: `root${randomBytes(3).toString('hex')}`,
    password: `Root-${randomBytes(6).toString('hex')}`,
  };
  let run: EmbeddedRun;
  let upstream: FakeUpstream;
  let base: string;
  let admin: Browser;

  /** A user root creates and funds, signed in. */
  async function aUser(quota: number): Promise<Browser> {
    const username = `u${randomBytes(5).toString('hex')}`;
    const created = await admin.call('/api/user/', { body: { username, password: PASSWORD } });
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: number }).id;
    expect((await admin.call('/api/user/', { method: 'PUT', body: { id, quota } })).status).toBe(200);
    const browser = new Browser(base);
    expect((await browser.signIn(username, PASSWORD)).status).toBe(200);
    await eventually(`the chat to offer ${MODEL} to ${username}`, async () => {
      const models = await browser.call('/api/chat/models');
      const self = await browser.call('/api/user/self');
      return (models.body.data as string[] | undefined)?.includes(MODEL) &&
        (self.body.data as { quota: number }).quota === quota
        ? true
        : undefined;
    });
    return browser;
  }

  const send = (browser: Browser, chatId: number, body: unknown, signal?: AbortSignal) =>
    fetch(`${base}/api/chat/${chatId}/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `${SESSION_COOKIE_NAME}=${browser.cookie(SESSION_COOKIE_NAME)}`,
        'new-api-user': String(browser.userId),
      },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const eventsOf = (text: string): ChatStreamEvent[] =>
    text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => chatStreamEventSchema.parse(JSON.parse(block.slice(6))));
  const newChat = async (browser: Browser): Promise<number> => {
    const created = await browser.call('/api/chat', { body: { model: MODEL } });
    expect(created.status).toBe(200);
    return (created.body.data as { id: number }).id;
  };
  const calls = async (browser: Browser): Promise<LogRow[]> =>
    (
      ((await browser.call('/api/log/self?p=1&page_size=50')).body.data as { items: LogRow[] }).items ?? []
    ).filter((row) => row.model_name === MODEL);
  const balance = async (browser: Browser): Promise<number> =>
    ((await browser.call('/api/user/self')).body.data as { quota: number }).quota;

  beforeAll(async () => {
    // 2 s an answer: the stop test's abort (browser → gateway → chat → relay → upstream) lands well before
    // the end even on a loaded machine; at 15 ms a chunk it once arrived after the answer had finished.
    upstream = await startFakeUpstream({ chunks: CHUNKS, chunkMs: 50, completionTokens: CHUNKS });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    run = startEmbedded(dataDir, port, {
      TOLLGATE_ROOT_USERNAME: root.username,
      TOLLGATE_ROOT_PASSWORD: root.password,
      LOG_LEVEL: 'warn',
      CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
    });
    // Six services and their PGlite databases start in one process: seconds when idle, far more on a busy CI machine.
    await eventually(
      'the embedded platform',
      async () => {
        if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
        return (await fetch(`${base}/api/status`).catch(() => undefined))?.ok ? true : undefined;
      },
      120_000,
    );
    admin = new Browser(base);
    expect((await admin.signIn(root.username, root.password)).status).toBe(200);
    await seedModelThroughAdmin((path, method, body) => admin.call(path, { method, body }), {
      model: MODEL,
      upstreamUrl: upstream.url,
      channelName: 'embedded upstream',
    });
  });

  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("streams an answer and charges the balance and the usage log exactly the answer's cost", async () => {
    const user = await aUser(50_000_000);
    const chatId = await newChat(user);
    const res = await send(user, chatId, { content: `A story about ${CANARY}` });
    expect(res.status).toBe(200);
    const events = eventsOf(await res.text());
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(1);
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`the answer ended with ${JSON.stringify(done)}`);
    const quota = parseChatMessageMetadata(done.message.metadata).quota!;
    expect(quota).toBeGreaterThan(0);
    const [row] = await eventually('the usage log row', async () =>
      (await calls(user)).length ? calls(user) : undefined,
    );
    expect(row).toMatchObject({ token_name: `chat #${chatId}`, quota });
    await eventually('the balance to move by the cost', async () =>
      (await balance(user)) === 50_000_000 - quota ? true : undefined,
    );
  });

  it('stores and charges only what was generated when the answer is stopped', async () => {
    const user = await aUser(50_000_000);
    const chatId = await newChat(user);
    const stop = new AbortController();
    const res = await send(user, chatId, { content: 'A long one' }, stop.signal);
    const reader = res.body!.getReader();
    let seen = '';
    while ((seen.match(/"type":"delta"/g) ?? []).length < 5)
      seen += Buffer.from((await reader.read()).value!).toString();
    stop.abort();
    const answer = await eventually('the stopped answer', async () =>
      ((await user.call(`/api/chat/${chatId}/messages`)).body.data as ChatMessageView[]).find(
        (m) => m.role === 'assistant',
      ),
    );
    expect(parseChatMessageMetadata(answer.metadata).finish_reason).toBe('aborted');
    const [row] = await eventually('the usage log row', async () =>
      (await calls(user)).length ? calls(user) : undefined,
    );
    expect(row!.completion_tokens).toBeGreaterThan(0);
    expect(row!.completion_tokens).toBeLessThan(CHUNKS);
    await eventually('the balance to move by what was generated', async () =>
      (await balance(user)) === 50_000_000 - row!.quota ? true : undefined,
    );
    // The stream the browser left carried no charge: the chat lists the cost billing recorded.
    const listed = await eventually('the stopped answer to be listed with its cost', async () => {
      const history = (await user.call(`/api/chat/${chatId}/messages`)).body.data as ChatMessageView[];
      const metadata = parseChatMessageMetadata(history.find((m) => m.id === answer.id)!.metadata);
      return typeof metadata.quota === 'number' ? metadata : undefined;
    });
    expect(listed).toMatchObject({
      finish_reason: 'aborted',
      quota: row!.quota,
      completion_tokens: row!.completion_tokens,
    });
    expect(listed.cost_unknown).toBeUndefined();
  });

  it("answers 404 to another user's requests for a chat", async () => {
    const owner = await aUser(1_000_000);
    const other = await aUser(1_000_000);
    const chatId = await newChat(owner);
    expect((await other.call(`/api/chat/${chatId}/messages`)).status).toBe(404);
    expect((await send(other, chatId, { content: 'hi' })).status).toBe(404);
    expect((await other.call(`/api/chat/${chatId}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('leaves no plaintext of a conversation in any file of the data directory', async () => {
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const files = filesUnder(dataDir);
    // chat's schema lives in the one PGlite cluster of a new data directory (tools/launcher embedded-databases.ts).
    expect(files.some((file) => file.includes(join('pg', 'platform')))).toBe(true);
    const needle = Buffer.from(CANARY);
    const holding = files.filter((file) => readFileSync(file).includes(needle));
    expect(holding).toEqual([]);
  });
});
