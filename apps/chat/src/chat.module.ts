import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { BillingGenerationClient } from './billing/billing-generation.client';
import { Chat } from './chats/chat.entity';
import { ChatsController } from './chats/chats.controller';
import { ChatsRepository } from './chats/chats.repository';
import { ChatsService } from './chats/chats.service';
import { OfferedModels } from './chats/offered-models';
import { StoppedAnswerCosts } from './chats/stopped-answer-costs';
import type { ChatConfig } from './config';
import { ConversationService } from './conversation/conversation.service';
import { UserKey } from './keys/user-key.entity';
import { UserKeyring } from './keys/user-keyring';
import { Message } from './messages/message.entity';
import { ChatsMigration } from './migrations/20261226-chats.migration';
import { RelayChatClient } from './relay/relay-chat.client';
import { DeletedUsersConsumer } from './users/deleted-users.consumer';

/** Chats and their messages (sealed with each user's data key); answers come through relay. */
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
            entities: [Chat, Message, UserKey],
            migrations: [ChatsMigration],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
      ],
      controllers: [ChatsController, DeletedUsersConsumer],
      providers: [
        UserKeyring,
        ChatsRepository,
        ChatsService,
        OfferedModels,
        RelayChatClient,
        BillingGenerationClient,
        StoppedAnswerCosts,
        ConversationService,
      ],
    };
  }
}
