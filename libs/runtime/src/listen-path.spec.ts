import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getOverSocket } from '../test/support/get-over-socket';
import { clearStaleSocket, listenOnPath, listenPathFromEnv, LISTEN_PATH_MAX_BYTES } from './listen-path';

/** A socket file nobody listens on, as a process killed with SIGKILL leaves it. */
async function leaveStaleSocket(path: string): Promise<void> {
  const child = spawn(process.execPath, [
    '-e',
    "require('node:net').createServer().listen(process.argv[1], () => process.stdout.write('up'))",
    path,
  ]);
  await new Promise<void>((done) => child.stdout.once('data', () => done()));
  const gone = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGKILL');
  await gone;
}

describe('LISTEN_PATH', () => {
  it('is unset when absent or empty', () => {
    expect(listenPathFromEnv({})).toBeUndefined();
    expect(listenPathFromEnv({ LISTEN_PATH: '' })).toBeUndefined();
  });

  it('takes an absolute path', () => {
    expect(listenPathFromEnv({ LISTEN_PATH: '/run/tollgate/relay.sock' })).toBe('/run/tollgate/relay.sock');
  });

  it('refuses a relative path, or one longer than a socket address holds, naming the variable', () => {
    expect(() => listenPathFromEnv({ LISTEN_PATH: 'data/relay.sock' })).toThrow(
      /LISTEN_PATH: must be an absolute/,
    );
    const long = `/${'d'.repeat(LISTEN_PATH_MAX_BYTES)}`;
    expect(() => listenPathFromEnv({ LISTEN_PATH: long })).toThrow(/LISTEN_PATH: .* at most 107 bytes/);
  });
});

describe('a service on a Unix socket', () => {
  let dir: string;
  let http: Server;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'listen-path-'));
    http = createServer((req, res) => res.end(`served ${req.url}`));
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  });

  afterEach(async () => {
    http.closeAllConnections();
    await new Promise<void>((done) => http.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is answered by the same HTTP server as its port, on a socket only its owner may open', async () => {
    const path = join(dir, 'svc.sock');
    const listener = await listenOnPath(http, path);

    await expect(getOverSocket(path, '/health/ready')).resolves.toEqual({
      status: 200,
      body: 'served /health/ready',
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);

    await listener.stopAccepting();
    expect(existsSync(path)).toBe(false);
    listener.destroyConnections();
  });

  it('starts where a dead process left its socket file', async () => {
    const path = join(dir, 'svc.sock');
    await leaveStaleSocket(path);
    expect(existsSync(path)).toBe(true);
    await expect(listenOnPath(http, path)).rejects.toMatchObject({ code: 'EADDRINUSE' });

    await clearStaleSocket(path);
    const listener = await listenOnPath(http, path);

    await expect(getOverSocket(path)).resolves.toMatchObject({ status: 200 });
    await listener.stopAccepting();
    listener.destroyConnections();
  });

  it('does not take a socket a live process listens on', async () => {
    const path = join(dir, 'svc.sock');
    const first = await listenOnPath(http, path);

    await expect(clearStaleSocket(path)).rejects.toThrow(/another process listens on/);
    await expect(getOverSocket(path)).resolves.toMatchObject({ status: 200 });
    await first.stopAccepting();
    first.destroyConnections();
  });

  it('leaves a path with no socket file alone', async () => {
    await expect(clearStaleSocket(join(dir, 'none.sock'))).resolves.toBeUndefined();
  });

  it('lets an answer in progress finish before its connection goes', async () => {
    http.removeAllListeners('request');
    // Answers after 300 ms, as a call relay is still serving when the service stops.
    http.on('request', (req, res) => setTimeout(() => res.end(`served ${req.url}`), 300));
    const path = join(dir, 'svc.sock');
    const listener = await listenOnPath(http, path);
    const answer = getOverSocket(path, '/slow');
    await new Promise<void>((done) => http.once('request', () => done()));

    await listener.stopAccepting();
    await listener.drain(5_000);
    listener.destroyConnections();

    await expect(answer).resolves.toEqual({ status: 200, body: 'served /slow' });
  });

  it('destroys the connections it handed over when asked, an answer in progress included', async () => {
    http.removeAllListeners('request');
    // Never answers: the connection stays busy, as a call relay is still serving.
    http.on('request', () => undefined);
    const path = join(dir, 'svc.sock');
    const listener = await listenOnPath(http, path);
    const cut = new Promise<string>((done) => {
      const req = request({ socketPath: path, path: '/hold', agent: false });
      req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
      req.end();
    });
    // Once the request has arrived at the server.
    await new Promise<void>((done) => http.once('request', () => done()));
    listener.destroyConnections();

    await expect(cut).resolves.toBe('ECONNRESET');
    await listener.stopAccepting();
  });
});
