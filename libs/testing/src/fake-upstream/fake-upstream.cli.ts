import { parseArgs } from 'node:util';
import {
  DEFAULT_FAKE_UPSTREAM_OPTIONS,
  InvalidFakeUpstreamOptionsError,
  resolveFakeUpstreamOptions,
  type FakeUpstreamKeys,
  type FakeUpstreamOptions,
} from './fake-upstream.options';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.server';

type NumberOption =
  | 'port'
  | 'latencyMs'
  | 'chunks'
  | 'chunkMs'
  | 'completionTokens'
  | 'failStatus'
  | 'failRate'
  | 'retryAfterSeconds'
  | 'dropAfter'
  | 'embeddingDimensions'
  | 'closeGraceMs';

const NUMBER_FLAGS: ReadonlyArray<readonly [flag: string, option: NumberOption]> = [
  ['port', 'port'],
  ['latency-ms', 'latencyMs'],
  ['chunks', 'chunks'],
  ['chunk-ms', 'chunkMs'],
  ['completion-tokens', 'completionTokens'],
  ['fail-status', 'failStatus'],
  ['fail-rate', 'failRate'],
  ['retry-after', 'retryAfterSeconds'],
  ['drop-after', 'dropAfter'],
  ['embedding-dimensions', 'embeddingDimensions'],
  ['close-grace-ms', 'closeGraceMs'],
];

const KEY_FLAGS: ReadonlyArray<readonly [flag: string, provider: keyof FakeUpstreamKeys]> = [
  ['openai-key', 'openai'],
  ['azure-key', 'azure'],
  ['anthropic-key', 'anthropic'],
  ['gemini-key', 'gemini'],
];

const d = DEFAULT_FAKE_UPSTREAM_OPTIONS;
export const FAKE_UPSTREAM_USAGE = `Usage: npm run fake-upstream -- [flags]

A fake OpenAI / Azure OpenAI / Anthropic / Gemini upstream for tests and benchmarks.

  --port N                  port, 0 = any free one (default ${d.port})
  --host H                  address to listen on (default ${d.host})
  --latency-ms N            delay before the first byte of each answer (default ${d.latencyMs})
  --chunks N                content chunks per stream (default ${d.chunks})
  --chunk-ms N              gap between stream chunks (default ${d.chunkMs})
  --completion-tokens N     tokens generated per answer (default ${d.completionTokens})
  --fail-status CODE        status of injected failures (default ${d.failStatus})
  --fail-rate R             share of requests that fail, 0..1, evenly spread (default ${d.failRate})
  --retry-after S           Retry-After of injected 429s (default ${d.retryAfterSeconds})
  --drop-after N            destroy the socket after N stream chunks (default: never)
  --break-after-end         send each stream whole, then destroy the socket instead of ending it
  --embedding-dimensions N  embedding length without a 'dimensions' field (default ${d.embeddingDimensions})
  --models a,b,c            ids listed by the models endpoints
  --openai-key K  --azure-key K  --anthropic-key K  --gemini-key K   accepted keys
  --close-grace-ms N        on SIGINT/SIGTERM, how long open answers may finish (default ${d.closeGraceMs})
  --help                    this text
`;

export class FakeUpstreamUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FakeUpstreamUsageError';
  }
}

const OPTION_FLAGS = new Map<string, string>([
  ...NUMBER_FLAGS.map(([flag, option]) => [option, flag] as [string, string]),
  ...KEY_FLAGS.map(([flag, provider]) => [`keys.${provider}`, flag] as [string, string]),
  ['host', 'host'],
  ['models', 'models'],
]);

export type ParsedFakeUpstreamArgs = { help: true } | { help: false; options: FakeUpstreamOptions };

export function parseFakeUpstreamArgs(argv: readonly string[]): ParsedFakeUpstreamArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(
          [...NUMBER_FLAGS, ...KEY_FLAGS].map(([flag]) => [flag, { type: 'string' as const }]),
        ),
        host: { type: 'string' },
        models: { type: 'string' },
        'break-after-end': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new FakeUpstreamUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values['help'] === true) return { help: true };

  const options: FakeUpstreamOptions = {};
  for (const [flag, option] of NUMBER_FLAGS) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value))
      throw new FakeUpstreamUsageError(`--${flag} must be a number, got '${raw}'`);
    options[option] = value;
  }
  const keys: Partial<FakeUpstreamKeys> = {};
  for (const [flag, provider] of KEY_FLAGS) {
    const raw = values[flag];
    if (typeof raw === 'string') keys[provider] = raw;
  }
  options.keys = keys;
  if (values['break-after-end'] === true) options.breakAfterEnd = true;
  if (typeof values['host'] === 'string') options.host = values['host'];
  if (typeof values['models'] === 'string')
    options.models = values['models']
      .split(',')
      .map((model) => model.trim())
      .filter(Boolean);

  try {
    resolveFakeUpstreamOptions(options);
  } catch (error) {
    if (!(error instanceof InvalidFakeUpstreamOptionsError)) throw error;
    throw new FakeUpstreamUsageError(
      error.issues
        .map((issue) => `--${OPTION_FLAGS.get(issue.option) ?? issue.option}: ${issue.message}`)
        .join('\n'),
    );
  }
  return { help: false, options };
}

export interface CliOutput {
  out(line: string): void;
  error(line: string): void;
}

export type CliOutcome = { started: true; upstream: FakeUpstream } | { started: false; exitCode: number };

/**
 * Starts the fake from command-line flags and prints the one line scripts wait for:
 * `fake-upstream listening on http://HOST:PORT`.
 */
export async function runFakeUpstreamCli(argv: readonly string[], output: CliOutput): Promise<CliOutcome> {
  let parsed: ParsedFakeUpstreamArgs;
  try {
    parsed = parseFakeUpstreamArgs(argv);
  } catch (error) {
    if (!(error instanceof FakeUpstreamUsageError)) throw error;
    output.error(`fake-upstream: ${error.message}\n\n${FAKE_UPSTREAM_USAGE}`);
    return { started: false, exitCode: 2 };
  }
  if (parsed.help) {
    output.out(FAKE_UPSTREAM_USAGE);
    return { started: false, exitCode: 0 };
  }
  const upstream = await startFakeUpstream(parsed.options);
  output.out(`fake-upstream listening on ${upstream.url}`);
  return { started: true, upstream };
}

/** Process entry point: runs until SIGINT or SIGTERM, then closes gracefully. */
export async function fakeUpstreamMain(argv: readonly string[]): Promise<void> {
  const outcome = await runFakeUpstreamCli(argv, {
    out: (line) => process.stdout.write(`${line}\n`),
    error: (line) => process.stderr.write(`${line}\n`),
  });
  if (!outcome.started) {
    process.exitCode = outcome.exitCode;
    return;
  }
  const { upstream } = outcome;
  const stop = (): void => {
    upstream.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`fake-upstream: close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
