export { eventually } from './eventually';
export { anIdentityUser, randomUserId } from './identity-user.fixture';
export { getJson, waitUntilReady, type JsonResponse } from './http';
// One implementation, in the runtime lib, shared with the launcher.
export { freePort } from '@tollgate/runtime';
export { requireEnv, START_INFRASTRUCTURE_HINT } from './require-env';
export { newRunId } from './run-id';
export { copyPgliteTemplate, PGLITE_TEMPLATE_ENV } from './pglite-template';
export {
  describeOnRealInfrastructure,
  INFRASTRUCTURES,
  scenarioInfrastructures,
  openInfrastructure,
  TOPIC_PARTITIONS,
  type InfrastructureKind,
  type InfrastructureOptions,
  type TestInfrastructure,
  type TestInfrastructureWithDatabase,
} from './test-infrastructure';
export { TcpProxy, type TcpTarget } from './tcp-proxy';
export {
  databaseBehindProxy,
  databaseOutage,
  deadLettered,
  recordDeadLetters,
  type DatabaseOutage,
} from './database-outage';
export { TopicRecorder } from './topic-recorder';
export { withDatabase, type QueryRows } from './with-database';
export { transportSubscriptionsOf } from './transport-subscriptions';
export { recordSocketWriteCalls, recordSocketWrites } from './socket-writes';
