import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@tollgate/runtime';
import { PortTakenError, ServiceProcess } from './service-process';

/** A stand-in for apps/chat/dist/main.js, as `source` says it behaves. */
function standInRoot(root: string, source: string): void {
  mkdirSync(join(root, 'apps', 'chat', 'dist'), { recursive: true });
  writeFileSync(join(root, 'apps', 'chat', 'dist', 'main.js'), source);
}

/** Answers every call with 200, as a service of another program on a port it took would. */
async function squatter(port: number): Promise<Server> {
  const server = createServer((_req, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const LISTENS = `require('node:http')
  .createServer((req, res) => {
    if (req.url !== '/crash') return res.end('chat');
    console.error('boom: the disk is full');
    process.exit(3);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('chat listening on http://127.0.0.1:' + process.env.PORT));`;

describe('ServiceProcess start-up', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'service-process-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('does not take an answer on its port for its own before the service says it listens there', async () => {
    // The service binds its port only after a while (as a real one does after loading), and finds it taken.
    standInRoot(
      root,
      `setTimeout(() => require('node:http').createServer().listen(Number(process.env.PORT), '127.0.0.1'), 300);`,
    );
    const [port] = await freePorts(1);
    const other = await squatter(port!);
    const chat = new ServiceProcess({ name: 'chat', repoRoot: root, port: port!, env: {}, logDir: root });
    try {
      const started = chat.start();
      await expect(started).rejects.toBeInstanceOf(PortTakenError);
      await expect(started).rejects.toMatchObject({
        port,
        message: expect.stringContaining(`chat exited with code 1 during start-up`),
      });
    } finally {
      await chat.kill();
      other.close();
    }
  });

  it('tells a start-up that failed for another reason from a taken port', async () => {
    standInRoot(root, `console.error('the database is unreachable'); process.exit(2);`);
    const [port] = await freePorts(1);
    const chat = new ServiceProcess({ name: 'chat', repoRoot: root, port: port!, env: {}, logDir: root });
    const failure = await chat.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(PortTakenError);
    expect((failure as Error).message).toContain('chat exited with code 2 during start-up');
  });
});

describe('ServiceProcess after start-up', () => {
  let root: string;
  let reports: string[];
  let chat: ServiceProcess;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'service-process-'));
    standInRoot(root, LISTENS);
    reports = [];
    const [port] = await freePorts(1);
    chat = new ServiceProcess({
      name: 'chat',
      repoRoot: root,
      port: port!,
      env: {},
      logDir: root,
      onUnexpectedExit: (report) => reports.push(report),
    });
    await chat.start();
  });
  afterEach(async () => {
    await chat.kill();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports a service that ends by itself, with the end of its stderr', async () => {
    const pid = chat.pid;
    await fetch(`${chat.url}/crash`).catch(() => undefined);
    while (reports.length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(`chat (pid ${pid}) exited with code 3 after it was ready`);
    expect(reports[0]).toContain('boom: the disk is full');
  });

  it('says nothing of a service it stopped', async () => {
    await chat.kill();
    // Longer than the report waits for the process's stderr to be read to the end.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(reports).toEqual([]);
  });
});
