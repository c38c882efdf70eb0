import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@tollgate/runtime';
import { serviceNodeFlags } from './service-node-flags';
import { ServiceProcess } from './service-process';

describe('serviceNodeFlags', () => {
  it('gives gateway, relay and the usage consumers larger semi-spaces and chat none', () => {
    for (const service of ['gateway', 'relay', 'auth', 'billing', 'admin'])
      expect(serviceNodeFlags(service)).toEqual(['--max-semi-space-size=32']);
    expect(serviceNodeFlags('chat')).toEqual([]);
  });
});

describe('ServiceProcess', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'service-node-flags-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("starts a service's process with its flags", async () => {
    // A stand-in for apps/relay/dist/main.js: ready at once, answering with the flags it was started with.
    mkdirSync(join(root, 'apps', 'relay', 'dist'), { recursive: true });
    writeFileSync(
      join(root, 'apps', 'relay', 'dist', 'main.js'),
      `require('node:http')
        .createServer((req, res) => res.end(JSON.stringify(process.execArgv)))
        .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('relay listening on the port'));`,
    );
    const [port] = await freePorts(1);
    const relay = new ServiceProcess({ name: 'relay', repoRoot: root, port: port!, env: {}, logDir: root });
    try {
      await relay.start();
      const execArgv = (await (await fetch(`${relay.url}/health/ready`)).json()) as string[];
      expect(execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=32']));
    } finally {
      await relay.kill();
    }
  });
});
