import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { AdminModule } from './admin.module';
import { adminConfigSchema } from './config';

export async function startAdmin(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(adminConfigSchema, env);
  return startNestService({ name: 'admin', config, module: AdminModule.register(config, runtime) });
}
