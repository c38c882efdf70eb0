// The run's own PostgreSQL, Redis and Kafka (scripts/infra.sh in a state directory of its own, so
// the servers other work shares are never touched), and the means to crash, freeze and restart them.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

export type InfraServer = 'postgres' | 'redis' | 'kafka';

export interface InfraEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  KAFKA_BROKERS: string;
}

function parseEnvLines(text: string): Partial<InfraEnv> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]!] = m[2]!.replace(/^['"]|['"]$/g, '');
  }
  return env;
}

/** Field 5 of /proc/<pid>/stat: the process group. */
function processGroupOf(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

export class Infrastructure {
  env!: InfraEnv;

  constructor(
    private readonly repoRoot: string,
    readonly stateDir: string,
  ) {}

  private script(...args: string[]) {
    return run('bash', [join(this.repoRoot, 'scripts', 'infra.sh'), ...args], {
      cwd: this.repoRoot,
      env: { ...process.env, TOLLGATE_INFRA_DIR: this.stateDir },
      timeout: 900_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  }

  async up(): Promise<InfraEnv> {
    await this.script('up');
    const { stdout } = await this.script('env');
    const env = parseEnvLines(stdout);
    if (!env.DATABASE_URL || !env.REDIS_URL || !env.KAFKA_BROKERS)
      throw new Error(`scripts/infra.sh env gave no complete environment: ${stdout}`);
    this.env = env as InfraEnv;
    await this.durableCommits();
    return this.env;
  }

  /**
   * scripts/infra.sh tunes PostgreSQL for tests (synchronous_commit off): a SIGKILL of the server
   * then loses the last commits it had acknowledged, which no production server does. This run's own
   * server gets PostgreSQL's default back, so a lost charge is the platform's fault, not the tuning's.
   */
  private async durableCommits(): Promise<void> {
    const client = new Client({ connectionString: this.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('alter system set synchronous_commit = on');
      await client.query('select pg_reload_conf()');
    } finally {
      await client.end();
    }
  }

  async down(): Promise<void> {
    await this.script('down');
  }

  /** The server's main process: the postmaster, redis-server, the broker's JVM. */
  pid(server: InfraServer): number {
    const file =
      server === 'postgres'
        ? join(readFileSync(join(this.stateDir, 'postgres', 'datadir'), 'utf8').trim(), 'postmaster.pid')
        : join(this.stateDir, server, `${server}.pid`);
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 1) throw new Error(`${server}: no pid in ${file}`);
    return pid;
  }

  /**
   * Signals the whole server: PostgreSQL's backends and Kafka's JVM live in the process group their
   * launcher made (setsid); Redis is one process. Never this suite's own group.
   */
  signal(server: InfraServer, signal: NodeJS.Signals): void {
    const pid = this.pid(server);
    const group = processGroupOf(pid);
    if (server !== 'redis' && group === pid && group !== processGroupOf('self')) process.kill(-group, signal);
    else process.kill(pid, signal);
  }

  /** Started again on the same port and data, as a supervisor would (chaos/infra-restart.sh). */
  async restart(server: InfraServer): Promise<void> {
    await run('bash', [join(this.repoRoot, 'chaos', 'infra-restart.sh'), server], {
      cwd: this.repoRoot,
      env: { ...process.env, TOLLGATE_INFRA_DIR: this.stateDir },
      timeout: 300_000,
    });
  }

  /** Waits until the killed server's main process is gone. */
  async waitGone(server: InfraServer, pid: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) return;
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${server} (pid ${pid}) still runs ${timeoutMs} ms after SIGKILL`);
  }
}
