import { AUDIT_REDACTED, auditTargetName, changedFields, redactForAudit } from './audit';

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

describe('audited objects by name', () => {
  it('names a changelog version by its version and title, a deleted one by what it was', () => {
    const release = { version: '1.4.0', title: 'Faster chat', content: '…', release_date: '2026-11-25' };
    expect(auditTargetName('version', null, release)).toBe('1.4.0 — Faster chat');
    expect(auditTargetName('version', release, null)).toBe('1.4.0 — Faster chat');
    expect(auditTargetName('version', release, { ...release, version: '1.4.1', title: '' })).toBe('1.4.1');
  });

  it("names incidents, users, channels and promo codes by their snapshot's name field", () => {
    expect(auditTargetName('incident', { title: 'Slow answers', status: 'investigating' }, null)).toBe(
      'Slow answers',
    );
    expect(auditTargetName('user', null, { username: 'alice', role: 1 })).toBe('alice');
    expect(auditTargetName('channel', { name: 'OpenAI main' }, { name: 'OpenAI backup' })).toBe(
      'OpenAI backup',
    );
    expect(auditTargetName('promo', { code: 'WINTER' }, null)).toBe('WINTER');
  });

  it('gives no name where the id is the name or the snapshot carries none', () => {
    expect(auditTargetName('option', { Footer: 'a' }, { Footer: 'b' })).toBeNull();
    expect(auditTargetName('model', null, { ratio: 1 })).toBeNull();
    expect(auditTargetName('user', { quota: 0 }, { quota: 5, reason: 'goodwill' })).toBeNull();
    expect(auditTargetName('version', null, null)).toBeNull();
    expect(auditTargetName('channel', null, { name: 42 })).toBeNull();
  });

  it('shortens a long name', () => {
    const name = auditTargetName('incident', null, { title: 'x'.repeat(500) })!;
    expect(name).toHaveLength(120);
    expect(name.endsWith('…')).toBe(true);
  });
});
