import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { AdminModule } from './admin.module';
import { AUDIT_GROUP } from './audit/audit.consumer';
import { CHANNEL_USAGE_GROUP } from './channels/channel-usage.consumer';
import { adminConfigSchema } from './config';

export async function startAdmin(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(adminConfigSchema, env);
  return startNestService({
    name: 'admin',
    config,
    module: AdminModule.register(config, runtime),
    eventTransport: {
      groupIds: {
        [AUDIT_GROUP]: config.AUDIT_CONSUMER_GROUP,
        [CHANNEL_USAGE_GROUP]: config.CHANNEL_USAGE_CONSUMER_GROUP,
      },
    },
  });
}
