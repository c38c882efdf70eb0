// The embedded platform as the bench's own child process: `startEmbedded` of tools/launcher (dist)
// with this process's environment, so that the target's CPU and memory are this process alone.
// Prints "embedded platform listening on <url>" once it serves; SIGTERM or SIGINT closes it.
import { REPO_ROOT, workspacePackage } from './workspace.mjs';

const { startEmbedded, tuneEmbeddedHeap } = workspacePackage('@tollgate/launcher');
// As `npm start` (tools/launcher's main-embedded) does before it starts the platform.
tuneEmbeddedHeap();
const platform = await startEmbedded({
  env: process.env,
  repoRoot: REPO_ROOT,
  log: (line) => process.stdout.write(`  ${line}\n`),
});
process.stdout.write(`embedded platform listening on ${platform.url}\n`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    platform.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`closing the embedded platform failed: ${error.stack ?? error.message}\n`);
        process.exit(1);
      },
    );
  });
}
