import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { ChatModule } from './chat.module';
import { chatConfigSchema } from './config';

const CHAT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export async function startChat(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(chatConfigSchema, env);
  return startNestService({
    name: 'chat',
    config,
    module: ChatModule.register(config, runtime),
    // Messages may carry images as data URLs (the gateway gives chat the /v1 body limit too).
    bodyLimit: CHAT_BODY_LIMIT_BYTES,
    eventTransport: {},
  });
}
