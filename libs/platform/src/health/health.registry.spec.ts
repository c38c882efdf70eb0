import { HealthRegistry } from './health.registry';

describe('HealthRegistry', () => {
  it('is ready with no checks and when every check passes', async () => {
    const registry = new HealthRegistry();
    await expect(registry.readiness()).resolves.toEqual({ ready: true, checks: [], failures: [] });
    registry.registerReadinessCheck('database', () => undefined);
    registry.registerReadinessCheck('topics', async () => true);
    await expect(registry.readiness()).resolves.toEqual({
      ready: true,
      checks: ['database', 'topics'],
      failures: [],
    });
  });

  it('lists failing, throwing and hanging checks', async () => {
    const registry = new HealthRegistry();
    registry.registerReadinessCheck('ok', () => undefined);
    registry.registerReadinessCheck('rejects', () => Promise.reject(new Error('refused')));
    registry.registerReadinessCheck('throws', () => {
      throw new Error('not caught up');
    });
    registry.registerReadinessCheck('hangs', () => new Promise(() => undefined), { timeoutMs: 20 });
    const report = await registry.readiness();
    expect(report.ready).toBe(false);
    expect(report.failures).toEqual([
      { check: 'rejects', reason: 'refused' },
      { check: 'throws', reason: 'not caught up' },
      { check: 'hangs', reason: 'no answer within 20 ms' },
    ]);
  });

  it('refuses two checks with one name', () => {
    const registry = new HealthRegistry();
    registry.registerReadinessCheck('database', () => undefined);
    expect(() => registry.registerReadinessCheck('database', () => undefined)).toThrow(/already registered/);
  });

  it('stops being ready once shutdown begins', async () => {
    const registry = new HealthRegistry();
    registry.beforeApplicationShutdown();
    await expect(registry.readiness()).resolves.toMatchObject({
      ready: false,
      failures: [{ check: 'shutdown', reason: 'the service is shutting down' }],
    });
  });
});
