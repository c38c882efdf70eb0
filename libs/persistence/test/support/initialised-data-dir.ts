import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * For the scenarios' child processes: `dataDir` as a copy of the integration tier's freshly
 * initialised PGlite cluster (TOLLGATE_TEST_PGLITE_TEMPLATE, from libs/testing's global setup), as
 * embedded mode starts its cluster from an initdb copy. initdb costs seconds of CPU per data
 * directory, the copy a fraction of one. Without the variable (or if the folder exists) PGlite's
 * start finds what it finds, and runs initdb on an empty folder itself.
 */
export function initialisedDataDir(dataDir: string): string {
  const template = process.env['TOLLGATE_TEST_PGLITE_TEMPLATE'];
  if (template !== undefined && template !== '' && !existsSync(dataDir)) {
    mkdirSync(dirname(dataDir), { recursive: true });
    cpSync(template, dataDir, { recursive: true });
  }
  return dataDir;
}
