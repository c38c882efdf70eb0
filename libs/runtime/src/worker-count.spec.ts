import { serviceWorkersEnv, workerCount } from './worker-count';

describe('workerCount', () => {
  const cores = () => 6;

  it('runs a single process when nothing is set', () => {
    expect(workerCount({}, 'relay', cores)).toBe(1);
    expect(workerCount({ TOLLGATE_WORKERS: ' ' }, 'relay', cores)).toBe(1);
  });

  it('takes the per-service setting over the common one', () => {
    const env = { TOLLGATE_WORKERS: '3', TOLLGATE_WORKERS_RELAY: '2' };
    expect(workerCount(env, 'relay', cores)).toBe(2);
    expect(workerCount(env, 'gateway', cores)).toBe(3);
  });

  it('uses one worker per core for auto', () => {
    expect(workerCount({ TOLLGATE_WORKERS_GATEWAY: 'auto' }, 'gateway', cores)).toBe(6);
  });

  it('refuses anything but a positive integer or auto, naming the variable', () => {
    for (const bad of ['0', '-1', '1.5', 'two']) {
      expect(() => workerCount({ TOLLGATE_WORKERS_RELAY: bad }, 'relay', cores)).toThrow(
        /TOLLGATE_WORKERS_RELAY must be a positive integer or "auto"/,
      );
    }
  });

  it('names the per-service variable after the service', () => {
    expect(serviceWorkersEnv('gateway')).toBe('TOLLGATE_WORKERS_GATEWAY');
    expect(serviceWorkersEnv('web-app')).toBe('TOLLGATE_WORKERS_WEB_APP');
  });
});
