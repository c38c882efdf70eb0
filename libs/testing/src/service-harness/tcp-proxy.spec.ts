import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { TcpProxy } from './tcp-proxy';

/** Answers each chunk it receives with the same bytes. */
async function startEchoServer(): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

async function opened(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

async function echo(socket: Socket, text: string): Promise<string> {
  socket.write(text);
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  return chunk.toString();
}

/** Resolves when the socket has closed, however it ended (`once` would reject on a reset). */
function closed(socket: Socket): Promise<void> {
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/** True when a connection through the proxy closed before a byte came back. */
async function endsWithoutAnswer(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  let answered = false;
  socket.on('data', () => (answered = true));
  socket.on('connect', () => socket.write('anyone?'));
  await closed(socket);
  return !answered;
}

describe('TcpProxy', () => {
  let server: Server;
  let proxy: TcpProxy;

  beforeEach(async () => {
    server = await startEchoServer();
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  });
  afterEach(async () => {
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('forwards bytes both ways to its target', async () => {
    const socket = await opened(proxy.port);
    expect(await echo(socket, 'hello')).toBe('hello');
    socket.destroy();
  });

  it('cut: destroys open connections and resets new ones until restored', async () => {
    const before = await opened(proxy.port);
    expect(await echo(before, 'one')).toBe('one');

    const beforeClosed = closed(before);
    proxy.cut();
    await beforeClosed;
    expect(await endsWithoutAnswer(proxy.port)).toBe(true);
    expect(proxy.refused).toBe(1);

    proxy.restore();
    const after = await opened(proxy.port);
    expect(await echo(after, 'two')).toBe('two');
    after.destroy();
  });

  it('rewrites a URL to go through it, keeping the rest', () => {
    expect(proxy.via('postgres://user:pw@db.example:5432/billing?schema=s1')).toBe(
      `postgres://user:pw@127.0.0.1:${proxy.port}/billing?schema=s1`,
    );
  });

  it('stands in front of the server a URL names', async () => {
    const port = (server.address() as AddressInfo).port;
    const named = await TcpProxy.forUrl(`redis://127.0.0.1:${port}`);
    try {
      const socket = await opened(named.port);
      expect(await echo(socket, 'via url')).toBe('via url');
      socket.destroy();
    } finally {
      await named.close();
    }
  });
});
