import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newRunId, requireEnv } from '@tollgate/testing';
import { startDistributed } from '../../src/distributed';
import { StandInRoot } from '../support/stand-in-platform';

jest.setTimeout(60_000);

/**
 * Stand-ins that answer with their service's name. The first chat finds its port taken, as when
 * another program binds a port the launcher probed free before chat gets to it: a squatter (left
 * running, answering 200 to anything) takes the port, then chat fails to bind it.
 */
const STAND_IN = `
const http = require('node:http');
const { existsSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const name = process.env.SERVICE_NAME;
const port = Number(process.env.PORT);
const marker = join(process.cwd(), 'squatter.pid');
if (name === 'chat' && !existsSync(marker)) {
  const squatter = require('node:child_process').spawn(process.execPath, ['-e',
    "require('node:http').createServer((q, s) => s.end('squatter')).listen(" + port + ", '127.0.0.1', () => console.log('up'))"],
    { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  writeFileSync(marker, String(squatter.pid));
  squatter.stdout.once('data', () => {
    squatter.stdout.destroy();
    squatter.unref();
    http.createServer().listen(port, '127.0.0.1');
  });
} else {
  http.createServer((req, res) => res.end(name)).listen(port, '127.0.0.1', () =>
    console.log(name + ' listening on http://127.0.0.1:' + port));
}
`;

describe('startDistributed: a port taken between its choice and its service binding it', () => {
  const { DATABASE_URL } = requireEnv(['DATABASE_URL']);
  let standIns: StandInRoot;

  beforeAll(() => {
    standIns = new StandInRoot(STAND_IN, DATABASE_URL, `launcher_port_${newRunId()}`);
  });

  afterAll(async () => {
    const marker = join(standIns.root, 'squatter.pid');
    if (existsSync(marker)) process.kill(Number(readFileSync(marker, 'utf8')), 'SIGTERM');
    await standIns.remove();
  });

  it('starts the platform again on other ports, and every service answers on its own', async () => {
    const platform = await startDistributed({ ...standIns.options(), unixHop: false });
    try {
      // The first start did meet the squatter.
      expect(existsSync(join(standIns.root, 'squatter.pid'))).toBe(true);
      for (const [name, service] of Object.entries(platform.services)) {
        expect([name, await (await fetch(`${service.url}/`)).text()]).toEqual([name, name]);
      }
    } finally {
      await platform.stop();
    }
  });
});
