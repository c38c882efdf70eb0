import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { ChatModule } from './chat.module';
import { chatConfigSchema } from './config';

export async function startChat(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(chatConfigSchema, env);
  return startNestService({ name: 'chat', config, module: ChatModule.register(config, runtime) });
}
