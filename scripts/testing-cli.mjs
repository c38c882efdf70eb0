// Runs a command-line fake of libs/testing (the LLM upstream, the payment providers) from the compiled
// library, building it first when it is missing or older than its sources. Build output goes to
// stderr so that the fake's stdout stays parseable.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const library = join(root, 'libs', 'testing');
// tsc -b rewrites the build info on every build that emits, so its time is the build's time.
const buildInfo = join(library, 'dist', 'tsconfig.tsbuildinfo');
const require = createRequire(import.meta.url);

function newestSourceTime(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function isBuildCurrent(entry) {
  if (!existsSync(entry) || !existsSync(buildInfo)) return false;
  const builtAt = statSync(buildInfo).mtimeMs;
  return (
    builtAt >= newestSourceTime(join(library, 'src')) &&
    builtAt >= statSync(join(library, 'tsconfig.json')).mtimeMs
  );
}

/**
 * `name` says who speaks on stderr; `cliModule` is the CLI module's path under libs/testing/dist (the
 * module itself, not the index: the index also loads the service harness, MikroORM and kafkajs);
 * `main` the function it exports, called with the command's arguments.
 */
export async function runTestingCli(name, cliModule, main) {
  const entry = join(library, 'dist', cliModule);
  if (!isBuildCurrent(entry)) {
    process.stderr.write(`${name}: building libs/testing…\n`);
    const tsc = require.resolve('typescript/bin/tsc');
    const build = spawnSync(process.execPath, [tsc, '-b', 'libs/testing'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    if (build.status !== 0) {
      if (!existsSync(entry)) {
        process.stderr.write(`${name}: the build failed and there is no earlier build to run\n`);
        process.exit(1);
      }
      process.stderr.write(`${name}: the build reported errors; running the output it produced\n`);
    }
  }
  await require(entry)[main](process.argv.slice(2));
}
