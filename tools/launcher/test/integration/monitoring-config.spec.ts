import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { parse, stringify } from 'yaml';
import { METRICS, type MetricDefinition } from '@tollgate/platform';

/**
 * No Docker engine or Prometheus server runs here, so the monitoring files are kept honest by the
 * tools and the code they describe: promtool checks the scrape configuration and the alert rules and
 * runs the rules' unit tests; every metric a dashboard or an alert queries is in the platform's
 * catalogue (or prom-client's defaults) with the labels it is filtered and grouped by, and some
 * service records it; the compose profile mounts files that exist and scrapes every service.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const PROMETHEUS_DIR = join(ROOT, 'deploy', 'prometheus');
const DASHBOARDS_DIR = join(ROOT, 'deploy', 'grafana', 'dashboards');
const SERVICES = ['gateway', 'auth', 'billing', 'relay', 'chat', 'admin'];
const MONITORING_SERVICES = ['prometheus', 'grafana', 'otel-collector', 'jaeger', 'alertmanager'];
/** Labels every scraped series has besides its own: the registry's default and Prometheus's target labels. */
const TARGET_LABELS = ['service', 'job', 'instance'];

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
}
interface RuleFile {
  groups: { name: string; rules: AlertRule[] }[];
}
interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string; datasource?: { uid: string } }[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: DashboardPanel[];
}
interface ComposeService {
  image?: string;
  profiles?: string[];
  volumes?: string[];
  environment?: Record<string, unknown>;
  command?: string[];
}

const readYaml = <T>(path: string): T => parse(readFileSync(path, 'utf8'), { merge: true }) as T;

const alerts = readYaml<RuleFile>(join(PROMETHEUS_DIR, 'alerts.yml'));
const dashboards: Record<string, Dashboard> = Object.fromEntries(
  readdirSync(DASHBOARDS_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file, JSON.parse(readFileSync(join(DASHBOARDS_DIR, file), 'utf8')) as Dashboard]),
);
const dashboardQueries = Object.entries(dashboards).flatMap(([file, dashboard]) =>
  dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `${file}: ${panel.title}`, expr: target.expr })),
  ),
);
const alertQueries = alerts.groups.flatMap((group) =>
  group.rules.map((rule) => ({ where: `alerts.yml: ${rule.alert ?? rule.record}`, expr: rule.expr })),
);

/** Grafana's own variables, replaced by values Prometheus accepts so promtool can parse the queries. */
const withGrafanaVariables = (expr: string): string =>
  expr.replace(/\$__rate_interval|\$__interval/g, '5m').replace(/\$__range/g, '1h');

// ---- what the services expose -------------------------------------------------------------------

interface Exposed {
  labels: readonly string[];
  /** The catalogue key, for metrics of the catalogue (a service must record it). */
  key?: string;
}

/** Every series name a Tollgate /metrics can carry, with its labels. */
async function exposedSeries(): Promise<Map<string, Exposed>> {
  const series = new Map<string, Exposed>();
  const add = (definition: Pick<MetricDefinition, 'name' | 'type' | 'labels'>, key?: string) => {
    const names =
      definition.type === 'histogram'
        ? ['_bucket', '_sum', '_count'].map((suffix) => definition.name + suffix)
        : [definition.name];
    for (const name of names) {
      series.set(name, {
        labels: name.endsWith('_bucket') ? [...definition.labels, 'le'] : definition.labels,
        ...(key ? { key } : {}),
      });
    }
  };
  for (const [key, definition] of Object.entries(METRICS)) add(definition, key);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const metric of await registry.getMetricsAsJSON()) {
    const labels = [...new Set(metric.values.flatMap((value) => Object.keys(value.labels)))];
    add({ name: metric.name, type: String(metric.type) as MetricDefinition['type'], labels });
  }
  series.set('up', { labels: [] });
  return series;
}

/** The catalogue keys some service's code asks MetricsService for (`counter('key')`, …). */
function recordedKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (entry === 'node_modules' || entry === 'dist') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.ts') && !entry.endsWith('.spec.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/\.(?:counter|gauge|histogram)\('([A-Za-z]+)'\)/g))
          keys.add(match[1] as string);
      }
    }
  };
  for (const top of ['apps', 'libs']) {
    for (const project of readdirSync(join(ROOT, top))) {
      const src = join(ROOT, top, project, 'src');
      if (existsSync(src)) walk(src);
    }
  }
  return keys;
}

/** Metric selectors of a PromQL expression: name, label names it matches on. */
function selectors(expr: string): { name: string; labels: string[] }[] {
  const found: { name: string; labels: string[] }[] = [];
  for (const match of expr.matchAll(
    /\b(tollgate_[a-z0-9_]+|nodejs_[a-z0-9_]+|process_[a-z0-9_]+|up)\b(\{[^}]*\})?/g,
  )) {
    const labels = [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map(
      (m) => m[1] as string,
    );
    found.push({ name: match[1] as string, labels });
  }
  return found;
}

/** Labels named in `by (…)`, `without (…)` and `on (…)` clauses. */
const groupingLabels = (expr: string): string[] =>
  [...expr.matchAll(/\b(?:by|without|on|ignoring)\s*\(([^)]*)\)/g)].flatMap((m) =>
    (m[1] as string)
      .split(',')
      .map((label) => label.trim())
      .filter((label) => label !== ''),
  );

describe('metrics queried by the dashboards and alerts', () => {
  let series: Map<string, Exposed>;
  let recorded: Set<string>;
  beforeAll(async () => {
    series = await exposedSeries();
    recorded = recordedKeys();
  });

  it('has dashboards and alerts to check', () => {
    expect(Object.keys(dashboards).sort()).toEqual(['billing.json', 'business.json', 'gateway-relay.json']);
    expect(dashboardQueries.length).toBeGreaterThan(20);
    expect(alertQueries.length).toBeGreaterThan(5);
  });

  it.each([...dashboardQueries, ...alertQueries].map((q) => [q.where, q.expr]))(
    '%s queries only series the services expose, by labels they have',
    (_where, expr) => {
      const used = selectors(expr);
      expect(used.length).toBeGreaterThan(0);
      const problems: string[] = [];
      const available = new Set<string>(TARGET_LABELS);
      for (const { name, labels } of used) {
        const exposed = series.get(name);
        if (!exposed) {
          problems.push(`${name} is not in the metrics catalogue`);
          continue;
        }
        if (exposed.key && !recorded.has(exposed.key))
          problems.push(`${name} is in the catalogue but no service records it`);
        for (const label of exposed.labels) available.add(label);
        for (const label of labels)
          if (!exposed.labels.includes(label) && !TARGET_LABELS.includes(label))
            problems.push(`${name} has no label ${label}`);
      }
      for (const label of groupingLabels(expr))
        if (!available.has(label)) problems.push(`grouped by ${label}, which none of its series has`);
      expect(problems).toEqual([]);
    },
  );
});

// ---- promtool -----------------------------------------------------------------------------------

/** PROMTOOL_PATH (scripts/test.sh installs it in the background), else what scripts/promtool.sh finds or installs. */
function promtoolPath(): string {
  if (process.env.PROMTOOL_PATH) return process.env.PROMTOOL_PATH;
  return execFileSync('bash', [join(ROOT, 'scripts', 'promtool.sh')], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop() as string;
}

describe('promtool', () => {
  let promtool: string;
  let scratch: string;
  beforeAll(() => {
    promtool = promtoolPath();
    scratch = mkdtempSync(join(tmpdir(), 'tollgate-promtool-'));
  }, 600_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const run = (...args: string[]) => {
    const result = spawnSync(promtool, args, { cwd: PROMETHEUS_DIR, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  it('accepts the scrape configuration and the rule files it loads', () => {
    const result = run('check', 'config', 'prometheus.yml');
    expect(result.output).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });

  it('accepts the alert rules', () => {
    const result = run('check', 'rules', 'alerts.yml');
    expect(result.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(result.status).toBe(0);
  });

  it("passes the rules' unit tests, in which alerts fire on synthetic series", () => {
    const tests = readYaml<{ tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[] }>(
      join(PROMETHEUS_DIR, 'alerts.test.yml'),
    );
    const firing = new Set(
      tests.tests.flatMap((t) =>
        t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    expect(firing.size).toBeGreaterThanOrEqual(2);
    const result = run('test', 'rules', 'alerts.test.yml');
    expect(result.output).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });

  it("parses every dashboard query (as recording rules, Grafana's variables filled in)", () => {
    const rules: RuleFile = {
      groups: [
        {
          name: 'dashboard-queries',
          rules: dashboardQueries.map((query, i) => ({
            record: `dashboard_query:check_${i}`,
            expr: withGrafanaVariables(query.expr),
          })),
        },
      ],
    };
    const file = join(scratch, 'dashboard-queries.yml');
    writeFileSync(file, stringify(rules));
    const result = run('check', 'rules', file);
    expect(result.output).toContain(`SUCCESS: ${dashboardQueries.length} rules found`);
    expect(result.status).toBe(0);
  });
});

// ---- compose profile, Grafana provisioning, collector -------------------------------------------

describe('the monitoring profile of docker-compose.yml', () => {
  const compose = readYaml<{ services: Record<string, ComposeService>; volumes: Record<string, unknown> }>(
    join(ROOT, 'docker-compose.yml'),
  );
  /** `./path:/container/path[:ro]` bind mounts of a service, as [host path, container path]. */
  const bindMounts = (service: ComposeService | undefined): [string, string][] =>
    (service?.volumes ?? [])
      .filter((volume) => volume.startsWith('./'))
      .map((volume) => {
        const [host, container] = volume.split(':');
        return [join(ROOT, host as string), container as string];
      });

  it('adds Prometheus, Grafana, the collector and Jaeger under the profile only', () => {
    for (const name of MONITORING_SERVICES) {
      expect(compose.services[name]?.profiles).toEqual(['monitoring']);
      expect(compose.services[name]?.image).toMatch(/:[0-9v][\w.-]*$/);
    }
    for (const name of [...SERVICES, 'postgres', 'redis', 'kafka'])
      expect(compose.services[name]?.profiles).toBeUndefined();
    for (const volume of ['prometheus-data', 'grafana-data']) expect(compose.volumes).toHaveProperty(volume);
  });

  it('mounts files and folders that exist', () => {
    const mounts = Object.values(compose.services).flatMap(bindMounts);
    expect(mounts.length).toBeGreaterThanOrEqual(6);
    for (const [host] of mounts) expect(existsSync(host) ? host : `missing: ${host}`).toBe(host);
  });

  it('scrapes every service by its compose name and port, with the rule file mounted beside the config', () => {
    const config = readYaml<{
      rule_files: string[];
      scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
    }>(join(PROMETHEUS_DIR, 'prometheus.yml'));
    const jobs = Object.fromEntries(config.scrape_configs.map((job) => [job.job_name, job]));
    const serviceNames = Object.entries(compose.services)
      .filter(([, service]) => service.environment?.SERVICE !== undefined)
      .map(([name]) => name)
      .sort();
    expect(serviceNames).toEqual([...SERVICES].sort());
    for (const name of serviceNames) {
      expect(jobs[name]?.static_configs.flatMap((c) => c.targets)).toEqual([`${name}:3000`]);
      expect(jobs[name]?.metrics_path ?? '/metrics').toBe('/metrics');
      expect(compose.services[name]?.environment?.PORT).toBe('3000');
    }
    const mounts = new Map(bindMounts(compose.services.prometheus));
    const configPath = mounts.get(join(PROMETHEUS_DIR, 'prometheus.yml')) as string;
    expect(configPath).toBeDefined();
    for (const ruleFile of config.rule_files) {
      expect(existsSync(join(PROMETHEUS_DIR, ruleFile))).toBe(true);
      expect(mounts.get(join(PROMETHEUS_DIR, ruleFile))).toBe(
        posix.join(posix.dirname(configPath), ruleFile),
      );
    }
  });

  it("sends Prometheus's alerts to the Alertmanager of the profile, whose receivers the operator fills in", () => {
    const config = readYaml<{ alerting: { alertmanagers: { static_configs: { targets: string[] }[] }[] } }>(
      join(PROMETHEUS_DIR, 'prometheus.yml'),
    );
    expect(config.alerting.alertmanagers.flatMap((a) => a.static_configs.flatMap((c) => c.targets))).toEqual([
      'alertmanager:9093',
    ]);
    expect(compose.volumes).toHaveProperty('alertmanager-data');
    const [[host, container]] = bindMounts(compose.services.alertmanager) as [[string, string]];
    expect(host).toBe(join(ROOT, 'deploy', 'alertmanager', 'alertmanager.yml'));
    expect(compose.services.alertmanager?.command).toContain(`--config.file=${container}`);
    const alertmanager = readYaml<{ route: { receiver: string }; receivers: { name: string }[] }>(host);
    expect(alertmanager.receivers.map((receiver) => receiver.name)).toContain(alertmanager.route.receiver);
  });

  it('lets the services export traces to the collector, which listens for OTLP/HTTP and forwards to Jaeger', () => {
    for (const name of SERVICES)
      expect(String(compose.services[name]?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT)).toBe(
        '${OTEL_EXPORTER_OTLP_ENDPOINT:-}',
      );
    const [[host, container]] = bindMounts(compose.services['otel-collector']) as [[string, string]];
    expect(host).toBe(join(ROOT, 'deploy', 'otel', 'collector.yml'));
    expect(compose.services['otel-collector'] as unknown).toMatchObject({
      command: [`--config=${container}`],
    });
    const collector = readYaml<{
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint?: string }>;
      service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
    }>(host);
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    for (const pipeline of Object.values(collector.service.pipelines)) {
      for (const receiver of pipeline.receivers) expect(collector.receivers).toHaveProperty(receiver);
      for (const exporter of pipeline.exporters) expect(collector.exporters).toHaveProperty([exporter]);
    }
    expect(collector.service.pipelines.traces?.exporters).toContain('otlphttp/jaeger');
    expect(collector.exporters['otlphttp/jaeger']?.endpoint).toBe('http://jaeger:4318');
    expect(compose.services.jaeger?.environment?.COLLECTOR_OTLP_ENABLED).toBe('true');
  });

  it('provisions Grafana with the Prometheus data source every dashboard panel uses, and the dashboards folder', () => {
    const mounts = new Map(bindMounts(compose.services.grafana));
    const provisioning = join(ROOT, 'deploy', 'grafana', 'provisioning');
    expect(mounts.get(provisioning)).toBe('/etc/grafana/provisioning');
    const datasources = readYaml<{ datasources: { uid: string; type: string; url: string }[] }>(
      join(provisioning, 'datasources', 'prometheus.yml'),
    ).datasources;
    expect(datasources).toEqual([
      expect.objectContaining({ uid: 'prometheus', type: 'prometheus', url: 'http://prometheus:9090' }),
    ]);
    const providers = readYaml<{ providers: { options: { path: string } }[] }>(
      join(provisioning, 'dashboards', 'tollgate.yml'),
    ).providers;
    expect(providers.map((p) => p.options.path)).toEqual([mounts.get(DASHBOARDS_DIR)]);

    const uids = Object.values(dashboards).map((d) => d.uid);
    expect(new Set(uids).size).toBe(uids.length);
    for (const dashboard of Object.values(dashboards)) {
      const ids = dashboard.panels.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
        expect(panel.targets?.length).toBeGreaterThan(0);
        expect(panel.datasource?.uid).toBe('prometheus');
        for (const target of panel.targets ?? [])
          expect(target.datasource?.uid ?? 'prometheus').toBe('prometheus');
      }
    }
  });
});
