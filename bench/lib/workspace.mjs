// The project's compiled packages (CommonJS, built by `node scripts/build.mjs`), loaded from ESM.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(REPO_ROOT, 'package.json'));

export function workspacePackage(name) {
  try {
    return require(name);
  } catch (error) {
    throw new Error(`cannot load ${name} (${error.message}); build first: node scripts/build.mjs`);
  }
}

export function rootPackageVersion(name) {
  return require(`${name}/package.json`).version;
}
