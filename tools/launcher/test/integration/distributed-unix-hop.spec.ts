import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServiceName } from '@tollgate/contracts';
import { newRunId, requireEnv } from '@tollgate/testing';
import { startDistributed, type DistributedPlatform } from '../../src/distributed';
import { UNIX_HOP_ENV } from '../../src/unix-hop';
import { StandInRoot } from '../support/stand-in-platform';

jest.setTimeout(60_000);

/**
 * Stand-ins for the services. Each writes the addresses it was given to <root>/<name>.json. Relay answers
 * /v1 only on its LISTEN_PATH (its port answers /health/ready and refuses the rest with 404), and opens
 * that socket a second after its port, as a service that has much to start before it serves. The gateway
 * forwards every call to its RELAY_URL, over the socket when it is a unix: one.
 */
const STAND_IN = `
const http = require('node:http');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const name = process.env.SERVICE_NAME;
writeFileSync(join(process.cwd(), name + '.json'), JSON.stringify({
  RELAY_URL: process.env.RELAY_URL, LISTEN_PATH: process.env.LISTEN_PATH,
}));
const tcp = (req, res) => {
  if (req.url === '/health/ready') return res.end('ready');
  if (name !== 'gateway') { res.statusCode = 404; return res.end(name + ' has no ' + req.url + ' on its port'); }
  const relay = process.env.RELAY_URL;
  const target = relay.startsWith('unix:')
    ? { socketPath: relay.slice(5), path: req.url, method: req.method }
    : { host: new URL(relay).hostname, port: new URL(relay).port, path: req.url, method: req.method };
  const out = http.request(target, (answer) => { res.writeHead(answer.statusCode); answer.pipe(res); });
  out.on('error', (error) => { res.statusCode = 502; res.end(error.message); });
  req.pipe(out);
};
http.createServer(tcp).listen(Number(process.env.PORT), '127.0.0.1', () =>
  console.log(name + ' listening on http://127.0.0.1:' + process.env.PORT));
if (name === 'relay' && process.env.LISTEN_PATH) {
  setTimeout(() => http.createServer((req, res) => res.end('relay over its socket: ' + req.url))
    .listen(process.env.LISTEN_PATH), 1000);
}
`;

/**
 * The distributed launcher's gateway reaches relay over a Unix socket: relay is given LISTEN_PATH, the
 * gateway RELAY_URL=unix:<the same path>, the others relay's port; the platform is handed over only once
 * relay answers on the socket, with TOLLGATE_UNIX_HOP=1; unset or 0 keeps the hop on TCP. Real PostgreSQL for the
 * launcher's databases; the services are stand-ins.
 */
describe('startDistributed: the gateway→relay hop over a Unix socket', () => {
  const { DATABASE_URL } = requireEnv(['DATABASE_URL']);
  const prefix = `launcher_unix_${newRunId()}`;
  let standIns: StandInRoot;

  beforeAll(() => (standIns = new StandInRoot(STAND_IN, DATABASE_URL, prefix)));

  afterAll(() => standIns.remove());

  const given = (name: ServiceName): { RELAY_URL?: string; LISTEN_PATH?: string } =>
    JSON.parse(readFileSync(join(standIns.root, `${name}.json`), 'utf8')) as {
      RELAY_URL?: string;
      LISTEN_PATH?: string;
    };

  async function withPlatform(
    options: { env?: Record<string, string>; socketDir?: string },
    check: (p: DistributedPlatform) => Promise<void>,
  ): Promise<void> {
    const platform = await startDistributed({
      ...standIns.options(),
      env: options.env ?? {},
      ...(options.socketDir ? { socketDir: options.socketDir } : {}),
    });
    try {
      await check(platform);
    } finally {
      await platform.stop();
    }
  }

  it('answers /v1 through relay socket, ready only once relay listens there, the socket dir removed at stop', async () => {
    let socketPath = '';
    await withPlatform({ env: { [UNIX_HOP_ENV]: '1' } }, async (platform) => {
      socketPath = platform.relaySocketPath!;
      expect(given('relay').LISTEN_PATH).toBe(socketPath);
      expect(given('gateway').RELAY_URL).toBe(`unix:${socketPath}`);
      // chat and admin call relay on its port.
      expect(given('chat').RELAY_URL).toBe(platform.services.relay.url);
      expect(given('admin').RELAY_URL).toBe(platform.services.relay.url);
      // Ready was asked on the socket: it exists when the platform is handed over.
      expect(existsSync(socketPath)).toBe(true);
      expect(statSync(dirname(socketPath)).mode & 0o077).toBe(0);

      const answer = await fetch(`${platform.url}/v1/chat/completions`, { method: 'POST', body: '{}' });

      expect(await answer.text()).toBe('relay over its socket: /v1/chat/completions');
    });
    expect(existsSync(dirname(socketPath))).toBe(false);
  });

  it('puts relay.sock in the socket directory it is given', async () => {
    const socketDir = join(standIns.root, 'data');
    mkdirSync(socketDir, { recursive: true });
    await withPlatform({ env: { [UNIX_HOP_ENV]: '1' }, socketDir }, async (platform) => {
      expect(platform.relaySocketPath).toBe(join(socketDir, 'relay.sock'));
      expect(given('gateway').RELAY_URL).toBe(`unix:${join(socketDir, 'relay.sock')}`);
      expect(await (await fetch(`${platform.url}/v1/models`)).text()).toBe(
        'relay over its socket: /v1/models',
      );
    });
  });

  it.each(['', '0'])(`keeps the hop on TCP with ${UNIX_HOP_ENV}="%s"`, async (value) => {
    await withPlatform({ env: { [UNIX_HOP_ENV]: value } }, async (platform) => {
      expect(platform.relaySocketPath).toBeUndefined();
      expect(given('relay').LISTEN_PATH).toBeUndefined();
      expect(given('gateway').RELAY_URL).toBe(platform.services.relay.url);

      const answer = await fetch(`${platform.url}/v1/models`);

      expect(await answer.text()).toBe('relay has no /v1/models on its port');
    });
  });
});
