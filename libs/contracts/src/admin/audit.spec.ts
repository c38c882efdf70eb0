import { AUDIT_REDACTED, changedFields, redactForAudit } from './audit';

describe('audit snapshots', () => {
  it('replaces secret values at any depth and keeps the rest', () => {
    const redacted = redactForAudit({
      name: 'upstream',
      key: 'sk-live-123',
      password_hash: '$argon2id$...',
      other: { api_key: 'k', region: 'eu', client_secret: 's' },
      tokens: [{ access_token: 't', id: 1 }],
      empty_key: '',
    });
    expect(redacted).toEqual({
      name: 'upstream',
      key: AUDIT_REDACTED,
      password_hash: AUDIT_REDACTED,
      other: { api_key: AUDIT_REDACTED, region: 'eu', client_secret: AUDIT_REDACTED },
      tokens: [{ access_token: AUDIT_REDACTED, id: 1 }],
      empty_key: '',
    });
    expect(JSON.stringify(redacted)).not.toMatch(/sk-live|argon2/);
    expect(redactForAudit(null)).toBeNull();
  });

  it('names the fields that changed, a secret included', () => {
    expect(changedFields({ a: 1, key: 'x', b: [1] }, { a: 1, key: 'y', b: [1, 2], c: null })).toEqual([
      'b',
      'key',
    ]);
    expect(changedFields(null, { a: 1 })).toEqual(['a']);
    expect(changedFields({ a: 1 }, null)).toEqual(['a']);
  });
});
