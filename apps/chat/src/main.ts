import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startChat } from './start-chat';

void runMain(
  startChat,
  () => createDistributedRuntime(process.env, 'chat', { bus: true, kv: false }),
  process.env,
);
