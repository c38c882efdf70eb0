import { requireEnv } from './require-env';

describe('requireEnv', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('returns the values of the named variables', () => {
    process.env['TOLLGATE_TEST_A'] = 'a';
    process.env['TOLLGATE_TEST_B'] = 'b';
    expect(requireEnv(['TOLLGATE_TEST_A', 'TOLLGATE_TEST_B'])).toEqual({
      TOLLGATE_TEST_A: 'a',
      TOLLGATE_TEST_B: 'b',
    });
  });

  it('fails naming every missing or empty variable, then the hint', () => {
    process.env['TOLLGATE_TEST_A'] = 'a';
    process.env['TOLLGATE_TEST_B'] = '';
    delete process.env['TOLLGATE_TEST_C'];
    expect(() => requireEnv(['TOLLGATE_TEST_A', 'TOLLGATE_TEST_B', 'TOLLGATE_TEST_C'], 'set them')).toThrow(
      'TOLLGATE_TEST_B, TOLLGATE_TEST_C are not set: set them',
    );
  });

  it('tells how to start the infrastructure when no hint is given', () => {
    delete process.env['TOLLGATE_TEST_C'];
    expect(() => requireEnv(['TOLLGATE_TEST_C'])).toThrow(
      /^TOLLGATE_TEST_C is not set: start the infrastructure with `bash scripts\/infra.sh up`/,
    );
  });
});
