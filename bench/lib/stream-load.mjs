// Runs the streaming load generator as its own process: the Go one (bench/load/streams-go, built by
// scripts/streams-load.sh) when Go is installed, which holds 10,000 streams on a 2-core machine, and
// the Node one (bench/load/streams.mjs) otherwise. Both take the same flags and print the same JSON
// line; its `client` field says which ran.
import { join } from 'node:path';
import { runToEnd } from './child.mjs';
import { log } from './log.mjs';
import { REPO_ROOT } from './workspace.mjs';

let clientPromise;

/** { kind: 'go'|'node', command, args }: the client every stream scenario of this run uses. */
export function resolveStreamClient() {
  clientPromise ??= runToEnd('bash', [join(REPO_ROOT, 'scripts', 'streams-load.sh')], { timeoutMs: 600_000 })
    .then(({ stdout }) => ({ kind: 'go', command: stdout.trim().split('\n').at(-1), args: [] }))
    .catch((error) => {
      log(`streams: the Go load client is unavailable (${error.message.split('\n')[0]}); using the Node one`);
      return {
        kind: 'node',
        command: process.execPath,
        args: [join(REPO_ROOT, 'bench', 'load', 'streams.mjs')],
      };
    })
    .then((client) => {
      log(`streams: load client ${client.kind} (${client.command})`);
      return client;
    });
  return clientPromise;
}

export async function runStreamLoad(
  target,
  { mode, concurrency = 1, rampMs, durationSeconds = 10, timeoutMs = 180_000 },
) {
  const client = await resolveStreamClient();
  const { stdout } = await runToEnd(
    client.command,
    [
      ...client.args,
      '--url',
      target.url,
      '--headers',
      JSON.stringify(target.headers),
      '--model',
      target.model,
      '--mode',
      mode,
      '--concurrency',
      String(concurrency),
      ...(rampMs === undefined ? [] : ['--ramp-ms', String(rampMs)]),
      '--duration-s',
      String(durationSeconds),
      '--timeout-ms',
      String(timeoutMs - 30_000),
      ...(target.body ? ['--body', JSON.stringify(target.body)] : []),
      ...(target.firstChunk ? ['--first', target.firstChunk] : []),
      ...(target.doneMarker ? ['--done', target.doneMarker] : []),
    ],
    { timeoutMs, env: { UV_THREADPOOL_SIZE: '4' } },
  );
  return { client: client.kind, ...JSON.parse(stdout.trim().split('\n').at(-1)) };
}
