// Runs bench/load/streams.mjs (the streaming load generator) as its own process.
import { join } from 'node:path';
import { runToEnd } from './child.mjs';
import { REPO_ROOT } from './workspace.mjs';

export async function runStreamLoad(
  target,
  { mode, concurrency = 1, durationSeconds = 10, timeoutMs = 180_000 },
) {
  const { stdout } = await runToEnd(
    process.execPath,
    [
      join(REPO_ROOT, 'bench', 'load', 'streams.mjs'),
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
  return JSON.parse(stdout.trim().split('\n').at(-1));
}
