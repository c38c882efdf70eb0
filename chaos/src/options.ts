// Command-line options of `npm run chaos`.
import { parseArgs } from 'node:util';
import { FAULT_MODES, FAULT_TARGETS, parseFaultList, type FaultSpec } from './fault-plan';

export interface ChaosOptions {
  quick: boolean;
  faults: FaultSpec[];
  /** Seconds a killed component stays down before the suite restarts it. */
  downSeconds: number;
  /** Seconds a frozen component stays stopped (SIGSTOP) before SIGCONT. */
  freezeSeconds: number;
  /** Seconds of load before the first fault, and between a recovery and the next fault. */
  calmSeconds: number;
  /** Longest wait for the first successful call after a fault is lifted. */
  recoverTimeoutSeconds: number;
  /** Longest wait, after the load stopped, for every event to be settled. */
  drainTimeoutSeconds: number;
  /** Concurrent /v1 clients, each with its own user and key. */
  apiClients: number;
  /** Client-side deadline of one call: a frozen hop must not hold a client for ever. */
  callTimeoutSeconds: number;
  /** Quota units of the tight-balance client (no top-ups): it is to reach zero during the run. */
  tightQuota: number;
  /** Where REPORT.md and the logs go (default reports/chaos/<run id>). */
  out?: string;
}

/** Every target killed, then every target frozen, then two pairs, once each. */
export const DEFAULT_FAULTS = [
  ...FAULT_TARGETS.map((t) => `kill:${t}`),
  ...FAULT_TARGETS.map((t) => `freeze:${t}`),
  'kill:relay-1+billing-1',
  'freeze:redis+auth',
].join(',');

/** A few minutes: one of each kind, one infrastructure server, one pair. */
export const QUICK_FAULTS = 'kill:relay-1,freeze:billing-1,kill:kafka,kill:gateway+redis';

export const USAGE = `Usage: npm run chaos -- [options]      (needs the compiled project: node scripts/build.mjs)

  --quick                   a short run to try the suite: faults ${QUICK_FAULTS},
                            shorter freezes and calms
  --faults LIST             comma-separated MODE:TARGET[+TARGET], MODE one of ${FAULT_MODES.join(', ')},
                            TARGET one of ${FAULT_TARGETS.join(', ')} (default: every target killed,
                            then every target frozen, then kill:relay-1+billing-1 and freeze:redis+auth)
  --down-seconds N          how long a killed component stays down before its restart (default 3)
  --freeze-seconds N        how long a frozen component stays stopped (default 32: longer than Kafka's
                            30 s consumer session and every request deadline; quick 12)
  --calm-seconds N          load without faults before the first fault and after each recovery (default 8; quick 5)
  --recover-timeout N       seconds to wait for the first successful call after a fault (default 120)
  --drain-timeout N         seconds to wait for every event to be settled after the load (default 120)
  --clients N               concurrent /v1 clients, each its own user and key (default 4), in turn
                            OpenAI calls, n = 2 and no-limit calls, Anthropic calls; one more client
                            on a tight balance comes on top
  --tight-quota N           the tight-balance client's quota units, which it spends to zero (default
                            60000; quick 8000)
  --call-timeout N          a client's deadline for one call, seconds (default 20)
  --out DIR                 where REPORT.md goes (default reports/chaos/<run id>)
  --help                    this text
`;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

export function parseOptions(argv: string[]): ChaosOptions | { help: true } {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      faults: { type: 'string' },
      'down-seconds': { type: 'string' },
      'freeze-seconds': { type: 'string' },
      'calm-seconds': { type: 'string' },
      'recover-timeout': { type: 'string' },
      'drain-timeout': { type: 'string' },
      clients: { type: 'string' },
      'call-timeout': { type: 'string' },
      'tight-quota': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return { help: true };
  const quick = values.quick ?? false;
  const options: ChaosOptions = {
    quick,
    faults: parseFaultList(values.faults ?? (quick ? QUICK_FAULTS : DEFAULT_FAULTS)),
    downSeconds: positiveInt('down-seconds', values['down-seconds'], 3),
    freezeSeconds: positiveInt('freeze-seconds', values['freeze-seconds'], quick ? 12 : 32),
    calmSeconds: positiveInt('calm-seconds', values['calm-seconds'], quick ? 5 : 8),
    recoverTimeoutSeconds: positiveInt('recover-timeout', values['recover-timeout'], 120),
    drainTimeoutSeconds: positiveInt('drain-timeout', values['drain-timeout'], 120),
    apiClients: positiveInt('clients', values.clients, 4),
    callTimeoutSeconds: positiveInt('call-timeout', values['call-timeout'], 20),
    tightQuota: positiveInt('tight-quota', values['tight-quota'], quick ? 8_000 : 60_000),
  };
  if (values.out) options.out = values.out;
  return options;
}
