import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICES } from '@tollgate/contracts';
import { freePorts } from '@tollgate/runtime';
import { serviceNodeFlags } from './service-node-flags';
import { ServiceProcess } from './service-process';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** What a deployment passes as NODE_OPTIONS to a service: undefined when it passes none. */
type NodeOptionsOf = (service: string) => string | undefined;

function composeNodeOptions(): NodeOptionsOf {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  return (service) => compose.services[service]?.environment?.NODE_OPTIONS;
}

function kubernetesNodeOptions(): NodeOptionsOf {
  const dir = join(REPO_ROOT, 'deploy', 'k8s');
  const containers = new Map<string, { env?: { name: string; value?: string }[] }>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const manifest = doc.toJS() as {
        kind?: string;
        spec?: { template?: { spec?: { containers?: unknown[] } } };
      };
      if (manifest?.kind !== 'Deployment') continue;
      for (const container of (manifest.spec?.template?.spec?.containers ?? []) as {
        name: string;
        env?: { name: string; value?: string }[];
      }[]) {
        containers.set(container.name, container);
      }
    }
  }
  return (service) => {
    const container = containers.get(service);
    if (!container) throw new Error(`no Deployment container named ${service} in deploy/k8s`);
    return container.env?.find((variable) => variable.name === 'NODE_OPTIONS')?.value;
  };
}

describe('serviceNodeFlags', () => {
  it('gives gateway and relay larger semi-spaces and the other services none', () => {
    expect(serviceNodeFlags('gateway')).toEqual(['--max-semi-space-size=32']);
    expect(serviceNodeFlags('relay')).toEqual(['--max-semi-space-size=32']);
    for (const service of ['auth', 'billing', 'chat', 'admin']) expect(serviceNodeFlags(service)).toEqual([]);
  });

  it.each([
    ['docker-compose.yml', composeNodeOptions],
    ['deploy/k8s', kubernetesNodeOptions],
  ])('is what %s passes each service as NODE_OPTIONS', (_where, nodeOptionsOf) => {
    const deployed = nodeOptionsOf();
    for (const service of SERVICES) {
      const flags = serviceNodeFlags(service);
      expect({ service, NODE_OPTIONS: deployed(service) }).toEqual({
        service,
        NODE_OPTIONS: flags.length > 0 ? flags.join(' ') : undefined,
      });
    }
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
        .listen(Number(process.env.PORT), '127.0.0.1');`,
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
