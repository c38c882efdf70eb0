import { scenarioInfrastructures } from './test-infrastructure';

const REAL = { DATABASE_URL: 'postgres://x', KAFKA_BROKERS: '127.0.0.1:9092', REDIS_URL: 'redis://x' };

describe('the infrastructures service scenarios run on', () => {
  it('follows TOLLGATE_TEST_INFRA', () => {
    expect(scenarioInfrastructures({ TOLLGATE_TEST_INFRA: 'both' })).toEqual(['embedded', 'real']);
    expect(scenarioInfrastructures({ ...REAL, TOLLGATE_TEST_INFRA: 'embedded' })).toEqual(['embedded']);
    expect(scenarioInfrastructures({ TOLLGATE_TEST_INFRA: 'real' })).toEqual(['real']);
  });

  it('takes the real infrastructure when its variables are set, the embedded one otherwise', () => {
    expect(scenarioInfrastructures(REAL)).toEqual(['real']);
    expect(scenarioInfrastructures({ ...REAL, REDIS_URL: '' })).toEqual(['embedded']);
    expect(scenarioInfrastructures({})).toEqual(['embedded']);
  });

  it('refuses a value it does not know', () => {
    expect(() => scenarioInfrastructures({ TOLLGATE_TEST_INFRA: 'kafka' })).toThrow(/real, embedded or both/);
  });
});
