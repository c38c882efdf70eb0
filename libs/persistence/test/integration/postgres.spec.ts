import { describePersistenceContract } from '../contract/persistence.contract';
import { requireEnv } from '../support/test-environment';

// Building a template database or waiting for PGlite's single connection can take seconds on a busy machine.
jest.setTimeout(30_000);

describe('persistence on PostgreSQL', () => {
  describePersistenceContract({
    adminUrl: () =>
      requireEnv(
        'DATABASE_URL',
        'give the admin URL of a PostgreSQL 15 server (bash scripts/infra.sh up postgres; eval "$(bash scripts/infra.sh env)")',
      ),
    concurrentSessions: true,
  });
});
