import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startChat } from './start-chat';

void runMain(
  'chat',
  startChat,
  () => createDistributedRuntime(process.env, 'chat', { bus: true, kv: false }),
  process.env,
);
