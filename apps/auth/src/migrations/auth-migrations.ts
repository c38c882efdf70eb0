import { UsersMigration } from './20261122-users.migration';
import { RegistrationMigration } from './20261201-registration.migration';
import { TokensMigration } from './20261215-tokens.migration';
import { AccountsMigration } from './20261222-accounts.migration';
import { SessionsValidAfterMigration } from './20261229-sessions-valid-after.migration';
import { TokenModelAliasesMigration } from './20261231-token-model-aliases.migration';
import { TokenRateLimitsMigration } from './20261231-token-rate-limits.migration';
import { AppliedUsageEventsBrinMigration } from './20270103-applied-usage-events-brin.migration';
import { TokensHotUpdatesMigration } from './20270106-tokens-hot-updates.migration';

/** Auth's migrations in the order they were written, which is the order they run. */
export const AUTH_MIGRATIONS = [
  UsersMigration,
  RegistrationMigration,
  TokensMigration,
  AccountsMigration,
  SessionsValidAfterMigration,
  TokenRateLimitsMigration,
  TokenModelAliasesMigration,
  AppliedUsageEventsBrinMigration,
  TokensHotUpdatesMigration,
];
