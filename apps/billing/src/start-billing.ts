import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { BillingModule } from './billing.module';
import { billingConfigSchema } from './config';

export async function startBilling(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(billingConfigSchema, env);
  return startNestService({
    name: 'billing',
    config,
    module: BillingModule.register(config, runtime),
    eventTransport: {},
  });
}
