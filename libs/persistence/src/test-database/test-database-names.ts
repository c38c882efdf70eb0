import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'tollgate';

/** One template per migration set: a changed migration list gets a new, freshly migrated template. */
export function migrationSetHash(migrationNames: readonly string[]): string {
  return createHash('sha256').update(migrationNames.join('\n')).digest('hex').slice(0, 16);
}

export function templateDatabaseName(migrationSetHashValue: string): string {
  return `${PREFIX}_tpl_${migrationSetHashValue}`;
}

/** Random suffix: several Jest workers create databases from one template at once. */
export function testDatabaseName(migrationSetHashValue: string, random: Buffer = randomBytes(6)): string {
  return `${PREFIX}_test_${migrationSetHashValue}_${random.toString('hex')}`;
}

export function testSchemaName(random: Buffer = randomBytes(6)): string {
  return `${PREFIX}_test_${random.toString('hex')}`;
}
