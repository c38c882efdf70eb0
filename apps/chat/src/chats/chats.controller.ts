import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  CHAT_LIST_DEFAULT_PAGE_SIZE,
  createChatSchema,
  ok,
  pageQuerySchema,
  sendMessageSchema,
  updateChatSchema,
  type ChatMessageView,
  type ChatView,
  type Envelope,
  type Page,
} from '@tollgate/contracts';
import { CurrentIdentity, RequestLocale, type Identity, type Locale } from '@tollgate/platform';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ConversationService } from '../conversation/conversation.service';
import { SseAnswerSink } from '../conversation/sse-answer-sink';
import { ChatsService } from './chats.service';

const pageQuery = pageQuerySchema(CHAT_LIST_DEFAULT_PAGE_SIZE, 100);
const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** SPEC §7 chat calls, for the signed-in user's own chats. */
@Controller('api/chat')
export class ChatsController {
  constructor(
    private readonly chats: ChatsService,
    private readonly conversation: ConversationService,
  ) {}

  @Post()
  @HttpCode(200)
  async create(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<ChatView>> {
    return ok(await this.chats.create(identity.userId, createChatSchema.parse(body ?? {}), locale));
  }

  @Get()
  async list(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
  ): Promise<Envelope<Page<ChatView>>> {
    const { page, pageSize } = pageQuery.parse(query);
    return ok(await this.chats.list(identity.userId, page, pageSize));
  }

  @Get('models')
  async models(@CurrentIdentity() identity: Identity): Promise<Envelope<string[]>> {
    return ok(await this.chats.models(identity.userId));
  }

  @Get(':id')
  async get(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<ChatView>> {
    return ok(await this.chats.get(identity.userId, idParam.parse(id), locale));
  }

  @Put(':id')
  async update(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<ChatView>> {
    const request = updateChatSchema.parse(body);
    return ok(await this.chats.update(identity.userId, idParam.parse(id), request, locale));
  }

  @Delete(':id')
  async delete(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.chats.delete(identity.userId, idParam.parse(id), locale);
    return ok(null);
  }

  @Get(':id/messages')
  async messages(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<ChatMessageView[]>> {
    return ok(await this.chats.messages(identity.userId, idParam.parse(id), locale));
  }

  @Get(':id/title')
  async title(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<{ title: string }>> {
    return ok(await this.conversation.title(identity.userId, idParam.parse(id), locale));
  }

  /** Server-sent events (chatStreamEventSchema) once the answer starts; a refusal before that is an envelope. */
  @Post(':id/messages')
  async send(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() reply: FastifyReply,
    @RequestLocale() locale: Locale,
  ): Promise<void> {
    const chatId = idParam.parse(id);
    const request = sendMessageSchema.parse(body);
    await this.conversation.send(identity.userId, chatId, request, new SseAnswerSink(reply), locale);
  }
}
