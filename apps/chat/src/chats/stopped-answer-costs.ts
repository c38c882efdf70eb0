import { Injectable } from '@nestjs/common';
import { parseChatMessageMetadata, type ChatMessageMetadata } from '@tollgate/contracts';
import { InjectLogger, type Logger } from '@tollgate/platform';
import { BillingGenerationClient } from '../billing/billing-generation.client';
import type { Message } from '../messages/message.entity';
import { ChatsRepository } from './chats.repository';

/** The most answers one read of a chat asks billing about (the newest ones): the list waits for them. */
export const MAX_LOOKUPS_PER_READ = 5;

/**
 * How long after a stopped answer is stored billing is asked for its cost. Billing records the call
 * within seconds of the stop (relay's usage event through its outbox and the bus); one it has not
 * recorded after this long never reached it, and is listed as of unknown cost instead of being asked
 * about on every read of the chat for ever.
 */
export const COST_LOOKUP_WINDOW_MS = 10 * 60_000;

/** The request id the chat gives relay for an answer; billing's usage log knows the call by it. */
export const answerRequestId = (chatId: number, answerId: number | string): string =>
  `chat-${chatId}-${answerId}`;

/**
 * A stopped answer is stored before relay's charge for it is known (relay bills what was generated
 * through its usage event, not in the stream the browser left). When a chat's messages are read, the
 * cost of such answers comes from billing's record of the call (the balance moved by exactly that),
 * and is written back so later reads need not ask again. Only ids cross to billing, never any text.
 */
@Injectable()
export class StoppedAnswerCosts {
  constructor(
    private readonly billing: BillingGenerationClient,
    private readonly store: ChatsRepository,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /**
   * The messages, with the cost of stopped answers that billing knows filled in. An answer billing does
   * not know yet, or cannot be asked about, stays as it was: a later read fills it in. One stored longer
   * than COST_LOOKUP_WINDOW_MS ago is not asked about and is listed with `cost_unknown` (not stored: the
   * rule is applied on each read, at no cost).
   */
  async fill(userId: number, messages: Message[], now: Date = new Date()): Promise<Message[]> {
    const lookupsFrom = now.getTime() - COST_LOOKUP_WINDOW_MS;
    const costless = messages
      .map((message) => ({ message, metadata: parseChatMessageMetadata(message.metadata) }))
      .filter(({ message, metadata }) => message.role === 'assistant' && costPending(metadata));
    if (costless.length === 0) return messages;
    const pending = costless
      .filter(({ message }) => message.createdAt.getTime() >= lookupsFrom)
      .slice(-MAX_LOOKUPS_PER_READ);
    const listed = new Map<number, Message>(
      costless
        .filter(({ message }) => message.createdAt.getTime() < lookupsFrom)
        .map(({ message, metadata }) => [
          message.id,
          {
            ...message,
            metadata: JSON.stringify({ ...metadata, cost_unknown: true } satisfies ChatMessageMetadata),
          },
        ]),
    );
    await Promise.all(
      pending.map(async ({ message, metadata }) => {
        const withCost = await this.lookUp(userId, message, metadata);
        if (withCost) listed.set(message.id, withCost);
      }),
    );
    return messages.map((message) => listed.get(message.id) ?? message);
  }

  private async lookUp(
    userId: number,
    message: Message,
    metadata: ChatMessageMetadata,
  ): Promise<Message | undefined> {
    try {
      const call = await this.billing.generation(userId, answerRequestId(message.chatId, message.id));
      if (!call) return undefined;
      const completed = JSON.stringify({
        ...metadata,
        prompt_tokens: call.prompt_tokens,
        completion_tokens: call.completion_tokens,
        quota: call.quota,
      } satisfies ChatMessageMetadata);
      await this.store.setMetadata(message.id, completed);
      return { ...message, metadata: completed };
    } catch (error) {
      this.logger.warn(
        { chatId: message.chatId, messageId: message.id, err: error },
        'the cost of a stopped answer could not be filled in from billing; the list is served without it',
      );
      return undefined;
    }
  }
}

function costPending(metadata: ChatMessageMetadata): boolean {
  return metadata.finish_reason === 'aborted' && (metadata.quota === null || metadata.quota === undefined);
}
