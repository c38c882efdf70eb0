// PostgreSQL, Redis and Kafka for the run: the harness's own (scripts/infra.sh up in its own state
// folder, down at the end) or, with --infra env, the ones DATABASE_URL/REDIS_URL/KAFKA_BROKERS name.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runToEnd } from './child.mjs';
import { log } from './log.mjs';
import { REPO_ROOT } from './workspace.mjs';

const VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS'];

function parseEnvLines(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
  }
  return env;
}

/**
 * The servers a stand-alone bench uses, from the environment (`eval "$(bash scripts/infra.sh env …)"`):
 * `names` → their URLs. A variable missing ends the process with the command that sets it.
 */
export function infrastructureFromEnv(names = VARIABLES) {
  const missing = names.find((name) => !process.env[name]);
  if (missing) {
    const servers = names.includes('DATABASE_URL') ? '' : ' redis kafka';
    console.error(`${missing} is not set: eval "$(bash scripts/infra.sh env${servers})" first`);
    process.exit(2);
  }
  return Object.fromEntries(names.map((name) => [name, process.env[name]]));
}

export async function openInfrastructure({ mode, stateDir }) {
  if (mode === 'env') {
    const missing = VARIABLES.filter((v) => !process.env[v]);
    if (missing.length) throw new Error(`--infra env needs ${missing.join(', ')} in the environment`);
    return { env: Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]])), close: async () => {} };
  }
  const script = join(REPO_ROOT, 'scripts', 'infra.sh');
  const env = { TOLLGATE_INFRA_DIR: stateDir };
  log(`starting PostgreSQL, Redis and Kafka (scripts/infra.sh up, state in ${stateDir})`);
  await runToEnd('bash', [script, 'up'], { env, cwd: REPO_ROOT, timeoutMs: 900_000 });
  const { stdout } = await runToEnd('bash', [script, 'env'], { env, cwd: REPO_ROOT });
  const parsed = parseEnvLines(stdout);
  const missing = VARIABLES.filter((v) => !parsed[v]);
  if (missing.length) throw new Error(`scripts/infra.sh env did not give ${missing.join(', ')}`);
  return {
    env: parsed,
    close: async () => {
      log('stopping the infrastructure (scripts/infra.sh down)');
      await runToEnd('bash', [script, 'down'], { env, cwd: REPO_ROOT, timeoutMs: 120_000 });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
