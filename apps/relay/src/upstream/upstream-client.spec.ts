import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FreeListPool } from '@tollgate/runtime';
import type { UpstreamHttpRequest } from '../providers';
import { CallAbortedError, CallAbortSource } from './call-abort';
import { UpstreamClient, UpstreamConnectError, type LateAnswer } from './upstream-client';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on loopback whose answer each test writes by hand. */
class Upstream {
  private handler: Handler = (_req, res) => res.end();
  readonly requests: IncomingMessage[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.requests.push(req);
      this.handler(req, res);
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answer(handler: Handler): void {
    this.handler = handler;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const aRequest = (url: string, body = '{"model":"m"}'): UpstreamHttpRequest => ({
  method: 'POST',
  url: `${url}/v1/chat/completions?x=1`,
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
  body,
  stream: false,
});

/** Resolves once the server sees the client's side of the request closed before it answered. */
const closedEarly = (res: ServerResponse): Promise<void> =>
  new Promise((resolve) => res.once('close', () => (res.writableFinished ? undefined : resolve())));

async function eventuallyTrue(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('UpstreamClient', () => {
  const upstream = new Upstream();
  let client: UpstreamClient;

  beforeEach(async () => {
    await upstream.start();
    client = new UpstreamClient({ connectionsPerOrigin: 4, headersTimeoutMs: 60_000 });
  });

  afterEach(async () => {
    await client.close();
    await upstream.stop();
    upstream.requests.length = 0;
  });

  it('sends the request and answers its status, headers and body read whole', async () => {
    let received = '';
    upstream.answer((req, res) => {
      req.on('data', (piece: Buffer) => (received += piece.toString()));
      req.on('end', () =>
        res
          .writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' })
          .end('\uFEFF{"answer":"привет"}'),
      );
    });
    const response = await client.send(aRequest(upstream.url), new CallAbortSource());

    expect(response.statusCode).toBe(201);
    expect(response.headers['x-upstream']).toBe('yes');
    // As undici's body.json(): the byte order mark is not part of the text.
    expect(await response.body.json()).toEqual({ answer: 'привет' });
    expect(received).toBe('{"model":"m"}');
    expect(upstream.requests[0]!.url).toBe('/v1/chat/completions?x=1');
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('sends each call to its own URL, path and query, when URLs of one and of two origins alternate', async () => {
    const other = new Upstream();
    await other.start();
    try {
      upstream.answer((req, res) => res.end(`one ${req.url}`));
      other.answer((req, res) => res.end(`two ${req.url}`));
      const at = (origin: string, path: string) => ({ ...aRequest(origin), url: `${origin}${path}` });
      const calls = [
        at(upstream.url, '/v1/chat/completions'),
        at(other.url, '/v1/chat/completions'),
        at(upstream.url, '/v1beta/models/gemini-2.5-flash:generateContent?alt=sse'),
        at(upstream.url, '/v1/chat/completions'),
        at(other.url, '/v1/embeddings'),
      ];
      const answers: string[] = [];
      for (const request of calls)
        answers.push(await (await client.send(request, new CallAbortSource())).body.text());
      expect(answers).toEqual([
        'one /v1/chat/completions',
        'two /v1/chat/completions',
        'one /v1beta/models/gemini-2.5-flash:generateContent?alt=sse',
        'one /v1/chat/completions',
        'two /v1/embeddings',
      ]);
    } finally {
      await other.stop();
    }
  });

  it('still sends after it was closed, on a new connection', async () => {
    upstream.answer((req, res) => res.end(req.url));
    await (await client.send(aRequest(upstream.url), new CallAbortSource())).body.text();
    await client.close();
    const again = await client.send(aRequest(upstream.url), new CallAbortSource());
    expect(await again.body.text()).toBe('/v1/chat/completions?x=1');
  });

  it("sends a streamed call's body byte for byte with its length (not chunked), call after call", async () => {
    const received: { body: string; length?: string; chunked?: string }[] = [];
    upstream.answer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (piece: string) => (body += piece));
      req.on('end', () => {
        received.push({
          body,
          length: req.headers['content-length'],
          chunked: req.headers['transfer-encoding'],
        });
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n');
      });
    });
    const body = JSON.stringify({
      model: 'm',
      stream: true,
      messages: [{ content: 'привет, 世界 👋 '.repeat(500) }],
    });
    for (let i = 0; i < 2; i++) {
      const response = await client.send(
        { ...aRequest(upstream.url, body), stream: true },
        new CallAbortSource(),
      );
      for await (const _chunk of response.body);
    }

    expect(received).toEqual(
      [0, 1].map(() => ({ body, length: String(Buffer.byteLength(body)), chunked: undefined })),
    );
  });

  it("hands undici a short streamed call's body whole, and a long one to be let go once written", async () => {
    upstream.answer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n'),
      );
    });
    const dispatch = jest.spyOn(FreeListPool.prototype, 'dispatch');
    try {
      for (const content of ['hi', 'a long prompt '.repeat(400)]) {
        const body = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content }] });
        const answer = await client.send(
          { ...aRequest(upstream.url, body), stream: true },
          new CallAbortSource(),
        );
        for await (const _chunk of answer.body);
      }
      const bodies = dispatch.mock.calls.map(([options]) => options.body);
      expect(typeof bodies[0]).toBe('string');
      expect(bodies[1]).toEqual(expect.objectContaining({ [Symbol.iterator]: expect.any(Function) }));
    } finally {
      dispatch.mockRestore();
    }
  });

  it('hands a streamed body out chunk by chunk, each before the upstream sent the next', async () => {
    let sendSecond!: () => void;
    const secondAsked = new Promise<void>((resolve) => (sendSecond = resolve));
    upstream.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      void secondAsked.then(() => res.end('data: two\n\n'));
    });
    const response = await client.send(aRequest(upstream.url), new CallAbortSource());
    const seen: string[] = [];
    for await (const chunk of response.body) {
      seen.push(chunk.toString());
      // The second event is only written once the first has been read here.
      if (seen.length === 1) sendSecond();
    }
    expect(seen).toEqual(['data: one\n\n', 'data: two\n\n']);
  });

  it('reads a large body intact when it is read slower than it arrives', async () => {
    const piece = Buffer.alloc(64 * 1024, 'x');
    upstream.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 64; i++) res.write(piece);
      res.end();
    });
    const response = await client.send(aRequest(upstream.url), new CallAbortSource());
    let bytes = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(bytes).toBe(64 * piece.length);
  });

  it('aborts the upstream call when the call is aborted before the answer’s headers', async () => {
    const abort = new CallAbortSource();
    let upstreamSawClose!: Promise<void>;
    upstream.answer((_req, res) => {
      upstreamSawClose = closedEarly(res);
      abort.abort();
    });
    await expect(client.send(aRequest(upstream.url), abort)).rejects.toBeInstanceOf(CallAbortedError);
    await upstreamSawClose;
  });

  it('aborts the upstream call when the call is aborted mid-body, and the reader is told', async () => {
    const abort = new CallAbortSource();
    let upstreamSawClose!: Promise<void>;
    upstream.answer((_req, res) => {
      upstreamSawClose = closedEarly(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const response = await client.send(aRequest(upstream.url), abort);
    const reading = (async () => {
      for await (const chunk of response.body) {
        if (chunk.toString() === 'data: one\n\n') abort.abort();
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(CallAbortedError);
    await upstreamSawClose;
  });

  it('ends the upstream call when its reader stops early', async () => {
    let upstreamSawClose!: Promise<void>;
    upstream.answer((_req, res) => {
      upstreamSawClose = closedEarly(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const response = await client.send(aRequest(upstream.url), new CallAbortSource());
    for await (const chunk of response.body) {
      expect(chunk.toString()).toBe('data: one\n\n');
      break;
    }
    await upstreamSawClose;
  });

  it('sends nothing for a call aborted already', async () => {
    const abort = new CallAbortSource();
    abort.abort();
    await expect(client.send(aRequest(upstream.url), abort)).rejects.toBeInstanceOf(CallAbortedError);
    expect(upstream.requests).toHaveLength(0);
  });

  it('says the upstream timed out when its headers take longer than the headers timeout', async () => {
    const impatient = new UpstreamClient({ connectionsPerOrigin: 1, headersTimeoutMs: 50 });
    upstream.answer(() => undefined);
    const sent = impatient.send(aRequest(upstream.url), new CallAbortSource());
    await expect(sent).rejects.toBeInstanceOf(UpstreamConnectError);
    await expect(sent).rejects.toMatchObject({ timedOut: true, message: 'UND_ERR_HEADERS_TIMEOUT' });
    await impatient.close();
  });

  it('gives up on a stream whose headers do not come within the stream headers timeout, not on a plain answer', async () => {
    const streams = new UpstreamClient({
      connectionsPerOrigin: 2,
      headersTimeoutMs: 60_000,
      streamHeadersTimeoutMs: 50,
    });
    upstream.answer((req, res) => {
      if (req.url?.includes('plain')) setTimeout(() => res.end('{}'), 300);
    });
    const stream = streams.send({ ...aRequest(upstream.url), stream: true }, new CallAbortSource());
    await expect(stream).rejects.toMatchObject({ timedOut: true, headersTimedOut: true });
    const plain = { ...aRequest(upstream.url), url: `${upstream.url}/plain` };
    await expect(streams.send(plain, new CallAbortSource())).resolves.toMatchObject({ statusCode: 200 });
    await streams.close();
  });

  it('holds a stream its caller left before the headers and tells what came: the headers timeout, or a status', async () => {
    const streams = new UpstreamClient({
      connectionsPerOrigin: 2,
      headersTimeoutMs: 60_000,
      streamHeadersTimeoutMs: 200,
    });
    const answerLater: ServerResponse[] = [];
    upstream.answer((req, res) => {
      if (req.url?.includes('answers')) answerLater.push(res);
    });
    const told = (): [Promise<number | UpstreamConnectError>, LateAnswer] => {
      let tell!: LateAnswer;
      return [new Promise((resolve) => (tell = resolve)), (answer) => tell(answer)];
    };

    const [hangVerdict, lateForHang] = told();
    const leaving = new CallAbortSource();
    const hanging = streams.send({ ...aRequest(upstream.url), stream: true }, leaving, lateForHang);
    await eventuallyTrue(() => upstream.requests.length === 1);
    leaving.abort();
    await expect(hanging).rejects.toBeInstanceOf(CallAbortedError);
    await expect(hangVerdict).resolves.toMatchObject({ headersTimedOut: true });

    const [answerVerdict, lateForAnswer] = told();
    const leavingToo = new CallAbortSource();
    const slow = { ...aRequest(upstream.url), url: `${upstream.url}/answers`, stream: true };
    const answering = streams.send(slow, leavingToo, lateForAnswer);
    await eventuallyTrue(() => answerLater.length === 1);
    leavingToo.abort();
    await expect(answering).rejects.toBeInstanceOf(CallAbortedError);
    const upstreamSawClose = closedEarly(answerLater[0]!);
    answerLater[0]!.writeHead(200, { 'content-type': 'text/event-stream' });
    answerLater[0]!.write('data: {}\n\n');
    await expect(answerVerdict).resolves.toBe(200);
    await upstreamSawClose;
    await streams.close();
  });

  it('ends the calls it holds when it closes, telling nothing', async () => {
    const streams = new UpstreamClient({
      connectionsPerOrigin: 2,
      headersTimeoutMs: 60_000,
      streamHeadersTimeoutMs: 60_000,
    });
    upstream.answer(() => undefined);
    const told: unknown[] = [];
    const leaving = new CallAbortSource();
    const held = streams.send({ ...aRequest(upstream.url), stream: true }, leaving, (a) => told.push(a));
    await eventuallyTrue(() => upstream.requests.length === 1);
    leaving.abort();
    await expect(held).rejects.toBeInstanceOf(CallAbortedError);
    await streams.close();
    expect(told).toEqual([]);
  });

  it('says the upstream could not be reached when nothing listens, without a timeout', async () => {
    const url = upstream.url;
    await upstream.stop();
    const sent = client.send(aRequest(url), new CallAbortSource());
    await expect(sent).rejects.toBeInstanceOf(UpstreamConnectError);
    await expect(sent).rejects.toMatchObject({ timedOut: false });
    await upstream.start();
  });

  it('fails the reader when the upstream breaks the body off', async () => {
    upstream.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"cut":');
      setImmediate(() => res.destroy());
    });
    const response = await client.send(aRequest(upstream.url), new CallAbortSource());
    await expect(response.body.text()).rejects.toThrow();
  });
});
