import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { adminConfigSchema } from '@tollgate/admin';
import { authConfigSchema } from '@tollgate/auth';
import { billingConfigSchema } from '@tollgate/billing';
import { chatConfigSchema } from '@tollgate/chat';
import { gatewayConfigSchema } from '@tollgate/gateway';
import { loadConfig } from '@tollgate/platform';
import { relayConfigSchema } from '@tollgate/relay';
import { serviceNodeFlags } from '../../src/service-node-flags';

/**
 * No Docker engine runs here, so the deployment files are kept honest by checking them against the
 * services' own configuration schemas: every variable they set exists, every required one is set,
 * and the resulting environment passes the schema.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const SCHEMAS: Record<string, z.AnyZodObject> = {
  gateway: gatewayConfigSchema,
  auth: authConfigSchema,
  billing: billingConfigSchema,
  relay: relayConfigSchema,
  chat: chatConfigSchema,
  admin: adminConfigSchema,
};
/**
 * Read by the container, not by the service: the Dockerfile's CMD picks the app with SERVICE, and Node
 * takes its V8 flags from NODE_OPTIONS.
 */
const CONTAINER_VARIABLES = new Set(['SERVICE', 'NODE_OPTIONS']);
/** The NODE_OPTIONS a service's container must get: the flags the distributed launcher starts it with. */
const nodeOptionsOf = (service: string): string | undefined =>
  serviceNodeFlags(service).join(' ') || undefined;

const requiredKeys = (schema: z.AnyZodObject): string[] =>
  Object.entries(schema.shape as Record<string, z.ZodTypeAny>)
    .filter(([, field]) => !field.isOptional())
    .map(([key]) => key);

/** `${VAR:-default}` → default, `${VAR:?msg}` → a stand-in secret, `${VAR}` → a stand-in. */
const interpolate = (value: unknown): string =>
  String(value ?? '').replace(
    /\$\{([A-Z0-9_]+)(?::?([-?])([^}]*))?\}/g,
    (_m, _name: string, op?: string, arg?: string) => (op === '-' ? (arg ?? '') : 'x'.repeat(64)),
  );

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      {
        environment?: Record<string, unknown>;
        build?: unknown;
        healthcheck?: unknown;
        ulimits?: { nofile?: { soft?: number; hard?: number } };
      }
    >;
  };

  it.each(Object.keys(SCHEMAS))(
    '%s: sets only variables its schema knows, all it requires, and valid values',
    (name) => {
      const service = compose.services[name];
      expect(service).toBeDefined();
      const env = Object.fromEntries(
        Object.entries(service?.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
      );
      const schema = SCHEMAS[name] as z.AnyZodObject;
      const known = new Set(Object.keys(schema.shape));
      expect(Object.keys(env).filter((k) => !known.has(k) && !CONTAINER_VARIABLES.has(k))).toEqual([]);
      expect(requiredKeys(schema).filter((k) => !(k in env))).toEqual([]);
      expect(env.SERVICE).toBe(name);
      expect(env.NODE_OPTIONS).toBe(nodeOptionsOf(name));
      expect(() => loadConfig(schema, env)).not.toThrow();
      expect(service?.healthcheck).toBeDefined();
    },
  );

  it.each(['gateway', 'relay'])('%s: may hold two descriptors for each of 10,000 open streams', (name) => {
    const nofile = compose.services[name]?.ulimits?.nofile;
    expect(nofile?.soft).toBeGreaterThanOrEqual(30_000);
    expect(nofile?.hard).toBeGreaterThanOrEqual(nofile?.soft ?? 0);
  });

  it('runs PostgreSQL with a database per service, Redis and Kafka in KRaft mode, with health checks', () => {
    for (const infra of ['postgres', 'redis', 'kafka'])
      expect(compose.services[infra]?.healthcheck).toBeDefined();
    const kafka = compose.services.kafka?.environment ?? {};
    expect(kafka.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    const init = readFileSync(join(ROOT, 'deploy', 'compose', 'postgres-init.sql'), 'utf8');
    for (const db of ['auth', 'billing', 'chat', 'admin']) {
      expect(init).toContain(`CREATE DATABASE tollgate_${db};`);
      expect(String(compose.services[db]?.environment?.DATABASE_URL)).toContain(`/tollgate_${db}`);
    }
  });

  it('starts every service from an entry point the Dockerfile can run', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('node apps/${SERVICE}/dist/main.js');
    for (const name of Object.keys(SCHEMAS))
      expect(existsSync(join(ROOT, 'apps', name, 'src', 'main.ts'))).toBe(true);
  });
});

interface K8sContainer {
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string } } }[];
  readinessProbe: { httpGet: { path: string } };
  livenessProbe: { httpGet: { path: string } };
}
interface K8sDocument {
  kind?: string;
  metadata?: { name?: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    template: { spec: { containers: K8sContainer[] } };
    scaleTargetRef: { name: string };
  };
}

describe('deploy/k8s', () => {
  const dir = join(ROOT, 'deploy', 'k8s');
  const docs = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as K8sDocument),
    );
  const byKind = (kind: string) => docs.filter((d) => d?.kind === kind);
  const configMap = byKind('ConfigMap')[0]?.data ?? {};
  const secret = byKind('Secret')[0]?.stringData ?? {};

  it.each(Object.keys(SCHEMAS))('%s: its Deployment gets a valid configuration', (name) => {
    const deployment = byKind('Deployment').find((d) => d.metadata?.name === name);
    expect(deployment).toBeDefined();
    const container = deployment?.spec.template.spec.containers[0] as K8sContainer;
    const env: Record<string, string> = { ...configMap, ...secret };
    for (const e of container.env ?? [])
      env[e.name] = e.value ?? secret[e.valueFrom?.secretKeyRef?.key ?? ''] ?? '';
    expect(container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value).toBe(nodeOptionsOf(name));
    expect(() => loadConfig(SCHEMAS[name] as z.AnyZodObject, env)).not.toThrow();
    expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(container.livenessProbe.httpGet.path).toBe('/health');
  });

  it('scales gateway and relay horizontally', () => {
    const targets = byKind('HorizontalPodAutoscaler')
      .map((h) => h.spec.scaleTargetRef.name)
      .sort();
    expect(targets).toEqual(['gateway', 'relay']);
  });
});
