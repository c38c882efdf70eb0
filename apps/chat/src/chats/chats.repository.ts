import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Message } from '../messages/message.entity';
import { UserKeyring } from '../keys/user-keyring';
import { Chat } from './chat.entity';

export interface ChatChanges {
  titleSealed?: string;
  model?: string | null;
  temperature?: number | null;
  systemPromptSealed?: string;
}

export interface NewMessage {
  role: Message['role'];
  contentSealed: string;
  metadata?: string;
}

/** The chats and messages tables; every read is scoped to the owner, so another user's id finds nothing. */
@Injectable()
export class ChatsRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly keyring: UserKeyring,
  ) {}

  async page(userId: number, page: number, pageSize: number): Promise<{ items: Chat[]; total: number }> {
    const [items, total] = await this.em
      .fork()
      .findAndCount(
        Chat,
        { userId },
        { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize },
      );
    return { items, total };
  }

  async create(
    userId: number,
    fields: Omit<Chat, 'id' | 'userId' | 'createdAt' | 'updatedAt'>,
  ): Promise<Chat> {
    const em = this.em.fork();
    const now = new Date();
    const chat = em.create(Chat, { userId, ...fields, createdAt: now, updatedAt: now });
    await em.flush();
    return chat;
  }

  find(userId: number, id: number): Promise<Chat | null> {
    return this.em.fork().findOne(Chat, { id, userId });
  }

  async update(userId: number, id: number, changes: ChatChanges): Promise<Chat | null> {
    const em = this.em.fork();
    const chat = await em.findOne(Chat, { id, userId });
    if (!chat) return null;
    Object.assign(chat, changes, { updatedAt: new Date() });
    await em.flush();
    return chat;
  }

  /** Its messages go with it (on delete cascade). */
  async delete(userId: number, id: number): Promise<boolean> {
    return (await this.em.fork().nativeDelete(Chat, { id, userId })) > 0;
  }

  messages(chatId: number): Promise<Message[]> {
    return this.em.fork().find(Message, { chatId }, { orderBy: { id: 'asc' } });
  }

  /** An id for an answer that is stored only once it ends (the stream names it from the start). */
  async nextMessageId(): Promise<number> {
    const [row] = await this.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(`select nextval(pg_get_serial_sequence('messages', 'id')) as id`);
    return Number(row!.id);
  }

  /**
   * Appends messages in one transaction and touches the chat; `replacing` (regenerate) removes the
   * answers after the last user message first.
   */
  async append(
    chatId: number,
    messages: (NewMessage & { id?: number })[],
    replacing?: number[],
  ): Promise<Message[]> {
    return this.em.fork().transactional(async (tx) => {
      if (replacing?.length) await tx.nativeDelete(Message, { id: { $in: replacing }, chatId });
      const now = new Date();
      const stored = messages.map((m) =>
        tx.create(Message, { ...m, chatId, metadata: m.metadata ?? '{}', createdAt: now }),
      );
      await tx.nativeUpdate(Chat, { id: chatId }, { updatedAt: now });
      await tx.flush();
      return stored;
    });
  }

  async setMetadata(messageId: number, metadata: string): Promise<void> {
    await this.em.fork().nativeUpdate(Message, { id: messageId }, { metadata });
  }

  /** A deleted account: its chats, their messages and its data key, in one transaction. Idempotent. */
  async deleteUser(userId: number): Promise<number> {
    return this.em.fork().transactional(async (tx) => {
      const chats = await tx.nativeDelete(Chat, { userId });
      await this.keyring.destroy(tx, userId);
      return chats;
    });
  }
}
