import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  NEW_CHAT_TITLE,
  type ChatMessageView,
  type ChatView,
  type CreateChat,
  type Page,
  type UpdateChat,
} from '@tollgate/contracts';
import type { AppException, Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import { UserKeyring } from '../keys/user-keyring';
import type { Chat } from './chat.entity';
import { toChatView, toMessageView } from './chat-views';
import { ChatsRepository, type ChatChanges } from './chats.repository';
import { OfferedModels } from './offered-models';
import { StoppedAnswerCosts } from './stopped-answer-costs';

/** Another user's chat answers exactly as a missing one, so ids cannot be probed. */
const chatNotFound = (locale: Locale): AppException =>
  localizedException(ErrorCode.NotFound, 'chat_not_found', locale);

/** A user's chats: list, create, rename and settings, delete, and their messages. */
@Injectable()
export class ChatsService {
  constructor(
    private readonly chats: ChatsRepository,
    private readonly keyring: UserKeyring,
    private readonly offered: OfferedModels,
    private readonly stoppedAnswerCosts: StoppedAnswerCosts,
  ) {}

  async list(userId: number, page: number, pageSize: number): Promise<Page<ChatView>> {
    const { items, total } = await this.chats.page(userId, page, pageSize);
    const box = await this.keyring.boxFor(userId);
    return { page, page_size: pageSize, total, items: items.map((chat) => toChatView(chat, box)) };
  }

  async create(userId: number, request: CreateChat, locale: Locale): Promise<ChatView> {
    if (request.model) await this.assertOffered(userId, request.model, locale);
    const box = await this.keyring.boxFor(userId);
    const chat = await this.chats.create(userId, {
      titleSealed: box.seal(NEW_CHAT_TITLE),
      model: request.model ?? null,
      temperature: request.temperature ?? null,
      systemPromptSealed: box.seal(request.system_prompt ?? ''),
    });
    return toChatView(chat, box);
  }

  async get(userId: number, id: number, locale: Locale): Promise<ChatView> {
    return toChatView(await this.require(userId, id, locale), await this.keyring.boxFor(userId));
  }

  async update(userId: number, id: number, request: UpdateChat, locale: Locale): Promise<ChatView> {
    await this.require(userId, id, locale);
    if (request.model) await this.assertOffered(userId, request.model, locale);
    const box = await this.keyring.boxFor(userId);
    const changes: ChatChanges = {};
    if (request.title !== undefined) changes.titleSealed = box.seal(request.title);
    if (request.model !== undefined) changes.model = request.model;
    if (request.temperature !== undefined) changes.temperature = request.temperature;
    if (request.system_prompt !== undefined) changes.systemPromptSealed = box.seal(request.system_prompt);
    const chat = await this.chats.update(userId, id, changes);
    if (!chat) throw chatNotFound(locale);
    return toChatView(chat, box);
  }

  async delete(userId: number, id: number, locale: Locale): Promise<void> {
    if (!(await this.chats.delete(userId, id))) throw chatNotFound(locale);
  }

  /**
   * Deleted accounts lose their chats, their messages and their data key, so copies of their texts
   * left in backups cannot be read. Idempotent. Returns the chats deleted.
   */
  async deleteAccounts(userIds: readonly number[]): Promise<number> {
    let chats = 0;
    for (const userId of userIds) chats += await this.chats.deleteUser(userId);
    return chats;
  }

  async messages(userId: number, id: number, locale: Locale): Promise<ChatMessageView[]> {
    await this.require(userId, id, locale);
    const [box, stored] = await Promise.all([this.keyring.boxFor(userId), this.chats.messages(id)]);
    const messages = await this.stoppedAnswerCosts.fill(userId, stored);
    return messages.map((message) => toMessageView(message, box));
  }

  models(userId: number): Promise<string[]> {
    return this.offered.forUser(userId);
  }

  async require(userId: number, id: number, locale: Locale): Promise<Chat> {
    const chat = await this.chats.find(userId, id);
    if (!chat) throw chatNotFound(locale);
    return chat;
  }

  offeredModels(userId: number): Promise<string[]> {
    return this.offered.forUser(userId);
  }

  /** The model to answer with: the one asked for, else the chat's, else the first offered; it must be offered. */
  answeringModel(chat: Chat, offered: readonly string[], locale: Locale, asked?: string): string {
    const model = asked ?? chat.model ?? offered[0];
    if (model === undefined) throw localizedException(ErrorCode.ModelNotFound, 'no_model_available', locale);
    if (!offered.includes(model)) throw modelNotOffered(model, locale);
    return model;
  }

  private async assertOffered(userId: number, model: string, locale: Locale): Promise<void> {
    if (!(await this.offered.forUser(userId)).includes(model)) throw modelNotOffered(model, locale);
  }
}

const modelNotOffered = (model: string, locale: Locale): AppException =>
  localizedException(ErrorCode.ModelNotFound, 'model_not_offered', locale, { model });
