import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { LISTEN_BACKLOG } from '@tollgate/platform';
import { freePort, freePorts, holdPorts, releaseHeldPorts, takeHeldPort } from './free-port';

/** The accept queue of the socket listening on `port`, as the kernel reports it (ss's Send-Q). */
function listenBacklog(port: number): number {
  const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
  return Number(line.split(/\s+/)[2]);
}
/** What the kernel grants a listen() asking for `backlog`. */
const granted = (backlog: number) =>
  Math.min(backlog, Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8')));

describe('freePorts', () => {
  it('gives distinct ports, all released again', async () => {
    for (let round = 0; round < 20; round++) {
      const ports = await freePorts(7);
      expect(new Set(ports).size).toBe(7);
    }
  });
});

describe('holdPorts', () => {
  const servers: HttpServer[] = [];
  afterEach(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
  });

  const bindError = async (port: number): Promise<string | undefined> => {
    const intruder = createServer();
    try {
      intruder.listen(port, '127.0.0.1');
      await once(intruder, 'listening');
      return undefined;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code;
    } finally {
      intruder.close();
    }
  };

  const answer = (server: HttpServer, text: string) => server.on('request', (_req, res) => res.end(text));

  it('keeps the port bound from the moment it is chosen until a server has taken it over', async () => {
    const [port] = await holdPorts(1);
    expect(await bindError(port!)).toBe('EADDRINUSE');

    const server = createHttpServer();
    servers.push(server);
    answer(server, 'taken over');
    const takeover = takeHeldPort(port!)!;
    server.listen(takeover.listenOptions);
    await once(server, 'listening');
    takeover.adopted(server);

    expect((server.address() as AddressInfo).port).toBe(port);
    expect(await bindError(port!)).toBe('EADDRINUSE');
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('taken over');
  });

  it('holds a port asked for by number, from the moment it is asked, and only alone', async () => {
    const asked = await freePort();
    expect(await holdPorts(1, '127.0.0.1', asked)).toEqual([asked]);
    expect(await bindError(asked)).toBe('EADDRINUSE');
    await expect(holdPorts(1, '127.0.0.1', asked)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await expect(holdPorts(2, '127.0.0.1', asked)).rejects.toThrow('held alone');
    await releaseHeldPorts([asked]);
    expect(await bindError(asked)).toBeUndefined();
  });

  it("queues as many connections as a service's own listen does, held and after the takeover", async () => {
    expect(LISTEN_BACKLOG).toBeGreaterThan(511);
    const [port] = await holdPorts(1);
    expect(listenBacklog(port!)).toBe(granted(LISTEN_BACKLOG));

    const server = createHttpServer();
    servers.push(server);
    const takeover = takeHeldPort(port!)!;
    server.listen(takeover.listenOptions);
    await once(server, 'listening');
    takeover.adopted(server);
    expect(listenBacklog(port!)).toBe(granted(LISTEN_BACKLOG));
  });

  it('serves a connection that arrived before the takeover once the server has the port', async () => {
    const [port] = await holdPorts(1);
    const early = fetch(`http://127.0.0.1:${port}/early`).then((res) => res.text());
    // The connection is accepted (and waits) while the port is only held.
    const probe = connect(port!, '127.0.0.1');
    await once(probe, 'connect');
    probe.destroy();

    const server = createHttpServer();
    servers.push(server);
    answer(server, 'served');
    const takeover = takeHeldPort(port!)!;
    server.listen(takeover.listenOptions);
    await once(server, 'listening');
    takeover.adopted(server);

    expect(await early).toBe('served');
  });

  it('is taken over once only, and knows no port it does not hold', async () => {
    const [port] = await holdPorts(1);
    const other = (await freePorts(1))[0]!;
    expect(takeHeldPort(other)).toBeUndefined();
    const takeover = takeHeldPort(port!)!;
    expect(takeHeldPort(port!)).toBeUndefined();

    const server = createHttpServer();
    servers.push(server);
    server.listen(takeover.listenOptions);
    await once(server, 'listening');
  });

  it('frees ports nobody took over when released', async () => {
    const ports = await holdPorts(3);
    expect(new Set(ports).size).toBe(3);
    await releaseHeldPorts(ports);
    for (const port of ports) {
      expect(takeHeldPort(port)).toBeUndefined();
      expect(await bindError(port)).toBeUndefined();
    }
  });
});
