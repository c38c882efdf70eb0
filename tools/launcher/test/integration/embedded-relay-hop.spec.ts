import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  copyPgliteTemplate,
  eventually,
  seedModelThroughAdmin,
  startFakeUpstream,
  TEST_OPERATOR_ENV,
  type AdminCall,
  type FakeUpstream,
} from '@tollgate/testing';

jest.setTimeout(240_000);

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const MAIN = join(REPO_ROOT, 'tools', 'launcher', 'dist', 'main-embedded.js');
const FAST = 'hop-fast';
const SLOW = 'hop-slow';
const PASSWORD = 'correct-horse-9';

/** How many TCP connections to `port` on loopback are established, as the kernel lists them. */
function establishedTo(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      // 01: ESTABLISHED; the local end is the server's, the connection's other end is its client.
      if (local?.endsWith(`:${hexPort}`) && state === '01') count++;
    }
  }
  return count;
}

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown };
}

/** A signed-in session, as the web client holds it: its cookies and New-Api-User on every call. */
async function signIn(
  base: string,
  username: string,
  password: string,
): Promise<(path: string, init?: { method?: string; body?: unknown }) => Promise<Answer>> {
  const cookies = new Map<string, string>();
  let userId = '';
  const call = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'content-type': 'application/json',
        ...(cookies.size
          ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
          : {}),
        ...(userId ? { 'new-api-user': userId } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(';')[0]!;
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  const login = await call('/api/user/login', { body: { username, password } });
  if (login.status !== 200) throw new Error(`${username} could not sign in: ${JSON.stringify(login.body)}`);
  userId = String((login.body.data as { id: number }).id);
  return call;
}

/** The first chunk of an answer's body, leaving the rest unread. */
async function firstChunk(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return Buffer.from(value!).toString();
}

/**
 * Embedded mode (`npm start`): the gateway reaches relay, on the same thread, over in-memory
 * connections (HTTP/1.1 through undici's pool, no kernel socket), while relay still listens on its
 * port for the services that call it. What a client sees must not change: answers plain and
 * streamed, and a client that goes away mid-stream is seen by relay, which stops the upstream call.
 */
describe('embedded mode: the gateway→relay hop in memory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-hop-'));
  const root = { username: 'root', password: `Root-${randomBytes(6).toString('hex')}` };
  let child: ChildProcess;
  let output = '';
  let base: string;
  let relayPort: number;
  let fast: FakeUpstream;
  let slow: FakeUpstream;
  let apiKey: string;

  const chat = (model: string, stream: boolean, signal?: AbortSignal) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hello' }] }),
      ...(signal ? { signal } : {}),
    });

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "node scripts/build.mjs" first`);
    // The launcher's initdb template already there (a copy of the integration tier's): a first start's
    // initdb is e2e's to check (embedded.spec.ts), this file is about the hop.
    copyPgliteTemplate(join(dataDir, 'pg', '.initdb'));
    fast = await startFakeUpstream({ chunks: 4, completionTokens: 8 });
    // Long enough that a stream is still open while the test looks at it: 60 chunks, 100 ms apart.
    slow = await startFakeUpstream({ chunks: 60, chunkMs: 100, completionTokens: 60 });
    child = spawn(process.execPath, [MAIN], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        ...TEST_OPERATOR_ENV,
        PORT: '0',
        TOLLGATE_DATA_DIR: dataDir,
        TOLLGATE_ROOT_PASSWORD: root.password,
        LOG_LEVEL: 'warn',
        CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    base = await eventually(
      'the embedded platform',
      async () => {
        if (child.exitCode !== null) throw new Error(`exited early:\n${output}`);
        return /Tollgate is running on (http:\/\/\S+) /.exec(output)?.[1];
      },
      120_000,
    );
    relayPort = Number(/relay on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);

    const admin = await signIn(base, root.username, root.password);
    const operator: AdminCall = (path, method, body) => admin(path, { method, body });
    await seedModelThroughAdmin(operator, { model: FAST, upstreamUrl: fast.url });
    await seedModelThroughAdmin(operator, { model: SLOW, upstreamUrl: slow.url });
    const username = `u${randomBytes(5).toString('hex')}`;
    const created = await admin('/api/user/', { body: { username, password: PASSWORD } });
    expect(created.status).toBe(200);
    const id = (created.body.data as { id: number }).id;
    expect((await admin('/api/user/', { method: 'PUT', body: { id, quota: 500_000_000 } })).status).toBe(200);
    const user = await signIn(base, username, PASSWORD);
    const token = await user('/api/token/', { body: { name: 'hop', unlimited_quota: true } });
    expect(token.status).toBe(200);
    const copied = await user(`/api/token/${(token.body.data as { id: number }).id}/key`, {
      method: 'POST',
    });
    apiKey = (copied.body.data as { key: string }).key;
    await eventually('relay to know the key, the balance and both models', async () => {
      const models = await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
      if (models.status !== 200) return undefined;
      const ids = ((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id);
      if (!ids.includes(FAST) || !ids.includes(SLOW)) return undefined;
      return (await chat(FAST, false)).status === 200 ? true : undefined;
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await Promise.all([fast?.close(), slow?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers plain and streamed calls with no TCP connection from the gateway to relay, which still listens', async () => {
    const plain = await chat(FAST, false);
    expect(plain.status).toBe(200);
    const completion = (await plain.json()) as { choices: { message: { content: string } }[] };
    expect(completion.choices[0]!.message.content.length).toBeGreaterThan(0);

    const before = establishedTo(relayPort);
    // Three streams open at once: over TCP the gateway's pool would hold a connection to relay for each.
    const held = await Promise.all([chat(SLOW, true), chat(SLOW, true), chat(SLOW, true)]);
    for (const response of held) {
      expect(response.status).toBe(200);
      expect(await firstChunk(response)).toMatch(/^data: /);
    }
    expect(slow.stats().activeStreams).toBe(3);
    expect(establishedTo(relayPort)).toBeLessThanOrEqual(before);
    for (const response of held) await response.body!.cancel();

    const streamed = await chat(FAST, true);
    expect(streamed.status).toBe(200);
    const text = await streamed.text();
    expect(text).toContain('"chat.completion.chunk"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);

    // Relay's port still answers whoever calls it over TCP (admin, chat, operators).
    expect((await fetch(`http://127.0.0.1:${relayPort}/health`)).status).toBe(200);
  });

  it("reaches relay with a client's abort mid-stream: relay stops the upstream call", async () => {
    await eventually('the held streams of the previous test to end', async () =>
      slow.stats().activeStreams === 0 ? true : undefined,
    );
    slow.resetStats();
    const abort = new AbortController();
    const response = await chat(SLOW, true, abort.signal);
    expect(response.status).toBe(200);
    expect(await firstChunk(response)).toMatch(/^data: /);
    abort.abort();
    await eventually('the upstream to see its stream abandoned', async () =>
      slow.stats().abortedStreams === 1 ? true : undefined,
    );
    expect(slow.stats().streamsCompleted).toBe(0);
  });
});
