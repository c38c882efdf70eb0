import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import type { ChatConfig } from './config';

/** Chats and messages arrive with the chat feature; the service already owns its database and outbox. */
@Module({})
export class ChatModule {
  static register(config: ChatConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: ChatModule,
      imports: [
        ServiceInfrastructureModule.forRoot({
          runtime,
          database: {
            url: config.DATABASE_URL,
            entities: [],
            migrations: [],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
      ],
    };
  }
}
