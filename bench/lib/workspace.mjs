// The project's compiled packages (CommonJS, built by `node scripts/build.mjs`), loaded from ESM.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(REPO_ROOT, 'package.json'));

/**
 * A package as the checkout at `root` resolves it: this one's by default, or another checkout's
 * build (the micro benches' `--root`, pairs of builds in one sitting).
 */
export function workspacePackage(name, root = REPO_ROOT) {
  try {
    return (root === REPO_ROOT ? require : createRequire(join(root, 'package.json')))(name);
  } catch (error) {
    throw new Error(
      `cannot load ${name} from ${root} (${error.message}); build first: node scripts/build.mjs`,
    );
  }
}

export function rootPackageVersion(name) {
  return require(`${name}/package.json`).version;
}
