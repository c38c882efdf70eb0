/**
 * `npm test` runs a fixed seed and a few cases per route; `npm run fuzz` sets FUZZ_RUNS high and,
 * without FUZZ_SEED, draws a seed that it prints so that a failure can be replayed.
 */
export interface FuzzSettings {
  seed: number;
  runsPerRoute: number;
  /** A client waits this long for a whole answer before it counts the call as a hang. */
  timeoutMs: number;
}

const DEFAULT_SEED = 20_260_514;
const DEFAULT_RUNS_PER_ROUTE = 2;

export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  return {
    seed:
      env.FUZZ_SEED === 'random'
        ? Math.floor(Math.random() * 2 ** 31)
        : wholeNumber(env, 'FUZZ_SEED', DEFAULT_SEED),
    runsPerRoute: wholeNumber(env, 'FUZZ_RUNS', DEFAULT_RUNS_PER_ROUTE),
    timeoutMs: wholeNumber(env, 'FUZZ_TIMEOUT_MS', 15_000),
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}
