import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { keepCallStateYoung } from '@tollgate/runtime/main';
import { AuthModule } from './auth.module';
import { authConfigSchema } from './config';

export async function startAuth(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  // Before the usage consumer and the read models allocate anything (bench/ANALYSIS.md, h125).
  keepCallStateYoung();
  const config = loadConfig(authConfigSchema, env);
  return startNestService({
    name: 'auth',
    config,
    module: AuthModule.register(config, runtime),
    eventTransport: {},
  });
}
