import { join } from 'node:path';
import { startEmbedded } from './embedded';
import { tuneEmbeddedHeap } from './embedded-heap';

/** `npm start`: the whole platform in this process until Ctrl-C. */
async function main(): Promise<void> {
  const repoRoot = join(__dirname, '..', '..', '..');
  tuneEmbeddedHeap();
  const started = Date.now();
  const platform = await startEmbedded({
    env: process.env,
    repoRoot,
    log: (line) => console.log(`  ${line}`),
  });
  console.log(
    `Tollgate is running on ${platform.url} (embedded mode, started in ${Date.now() - started} ms). Ctrl-C stops it.`,
  );

  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: stopping…`);
    platform.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
