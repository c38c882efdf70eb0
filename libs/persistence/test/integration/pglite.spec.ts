import { describePersistenceContract } from '../contract/persistence.contract';
import { requireEnv } from '../support/test-environment';

// Building a template database or waiting for PGlite's single connection can take seconds on a busy machine.
jest.setTimeout(30_000);

describe('persistence on PGlite', () => {
  describePersistenceContract({
    adminUrl: () =>
      requireEnv(
        'TOLLGATE_TEST_PGLITE_URL',
        'the integration tier starts PGlite in libs/testing/src/jest/global-setup.ts',
      ),
  });
});
