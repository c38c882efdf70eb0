import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Where the integration tier's global setup keeps a PGlite data directory just out of initdb
 * (libs/testing/src/jest/global-setup.ts); child processes inherit it.
 */
export const PGLITE_TEMPLATE_ENV = 'TOLLGATE_TEST_PGLITE_TEMPLATE';

/**
 * Makes `dataDir` a copy of the tier's freshly initialised PGlite cluster, as embedded mode starts
 * a cluster from its `.initdb` copy: initdb costs seconds of CPU, a copy a fraction of one. Left
 * alone if it exists, or outside the integration tier (PGlite then runs initdb itself).
 */
export function copyPgliteTemplate(dataDir: string): string {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template !== undefined && template !== '' && !existsSync(dataDir)) {
    mkdirSync(dirname(dataDir), { recursive: true });
    cpSync(template, dataDir, { recursive: true });
  }
  return dataDir;
}
