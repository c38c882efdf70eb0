import {
  migrationSetHash,
  templateDatabaseName,
  testDatabaseName,
  testSchemaName,
} from './test-database-names';

describe('test database names', () => {
  it('derives one template per migration set', () => {
    const hash = migrationSetHash(['CreateUsers', 'AddEmail']);
    expect(migrationSetHash(['CreateUsers', 'AddEmail'])).toBe(hash);
    expect(migrationSetHash(['CreateUsers'])).not.toBe(hash);
    expect(migrationSetHash(['AddEmail', 'CreateUsers'])).not.toBe(hash);
    expect(templateDatabaseName(hash)).toBe(`tollgate_tpl_${hash}`);
  });

  it('makes distinct identifiers PostgreSQL accepts (≤ 63 chars)', () => {
    const hash = migrationSetHash(['CreateUsers']);
    const first = testDatabaseName(hash, Buffer.from('000000000001', 'hex'));
    const second = testDatabaseName(hash, Buffer.from('000000000002', 'hex'));
    expect(first).not.toBe(second);
    for (const name of [first, second, testSchemaName(), templateDatabaseName(hash)]) {
      expect(name).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
    }
  });
});
