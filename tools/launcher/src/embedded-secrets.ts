import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '@tollgate/runtime';

export interface EmbeddedSecrets {
  TOLLGATE_INTERNAL_TOKEN_SECRET: string;
  TOLLGATE_ENCRYPTION_KEY: string;
}

/**
 * The secrets embedded mode needs, from the environment when given, else generated once into the
 * data directory (mode 0600) so that keys encrypted yesterday still decrypt today.
 */
export function embeddedSecrets(env: Env, dataDir: string): EmbeddedSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<EmbeddedSecrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<EmbeddedSecrets>;
  const secrets: EmbeddedSecrets = {
    TOLLGATE_INTERNAL_TOKEN_SECRET:
      env.TOLLGATE_INTERNAL_TOKEN_SECRET ||
      stored.TOLLGATE_INTERNAL_TOKEN_SECRET ||
      randomBytes(32).toString('hex'),
    TOLLGATE_ENCRYPTION_KEY:
      env.TOLLGATE_ENCRYPTION_KEY || stored.TOLLGATE_ENCRYPTION_KEY || randomBytes(32).toString('base64'),
  };
  if (
    stored.TOLLGATE_INTERNAL_TOKEN_SECRET !== secrets.TOLLGATE_INTERNAL_TOKEN_SECRET ||
    stored.TOLLGATE_ENCRYPTION_KEY !== secrets.TOLLGATE_ENCRYPTION_KEY
  ) {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
