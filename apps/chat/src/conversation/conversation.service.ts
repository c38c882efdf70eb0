import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  NEW_CHAT_TITLE,
  type ChatContent,
  type ChatMessageMetadata,
  type SendMessage,
} from '@tollgate/contracts';
import {
  AppException,
  InjectServiceConfig,
  refusedRangeOf,
  type Locale,
  type NonPublicRange,
  type SecretBox,
} from '@tollgate/platform';
import type { Chat } from '../chats/chat.entity';
import { openContent, sealContent, toMessageView } from '../chats/chat-views';
import { ChatsRepository } from '../chats/chats.repository';
import { ChatsService } from '../chats/chats.service';
import { answerRequestId } from '../chats/stopped-answer-costs';
import type { ChatConfig } from '../config';
import { localizedException } from '../i18n/messages';
import { UserKeyring } from '../keys/user-keyring';
import type { Message } from '../messages/message.entity';
import { readAnswer, type AnswerEnd } from '../relay/answer-stream';
import { RelayChatClient, RelayRefusal } from '../relay/relay-chat.client';
import type { AnswerSink } from './answer-sink';
import { errorCodeOfRelayStatus } from './relay-errors';

const TITLE_MAX_LENGTH = 80;
const TITLE_SOURCE_CHARS = 1_000;
const TITLE_INSTRUCTION =
  'Write a title of at most six words for the conversation below, in its language. Reply with the title only, without quotes.';

/** The text parts of a message's content. */
function textOf(content: ChatContent): string {
  return typeof content === 'string'
    ? content
    : content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');
}

/** The first image URL whose host is in a non-public range the operator has not allowed. */
function refusedImageOf(content: ChatContent, allowed: readonly NonPublicRange[]) {
  if (typeof content === 'string') return undefined;
  for (const part of content) {
    if (part.type !== 'image_url') continue;
    const range = refusedRangeOf(part.image_url.url, allowed);
    if (range) return range;
  }
  return undefined;
}

function hasSubstance(content: ChatContent): boolean {
  return typeof content === 'string'
    ? content.trim() !== ''
    : content.some((part) => part.type === 'image_url' || part.text.trim() !== '');
}

/**
 * Talking to a model in a chat: stores the user's message, streams the answer from relay to the
 * browser as it arrives, stores the answer when it ends (or what was generated when the browser
 * stops it), and names chats after their first exchange.
 */
@Injectable()
export class ConversationService {
  constructor(
    private readonly chats: ChatsService,
    private readonly store: ChatsRepository,
    private readonly keyring: UserKeyring,
    private readonly relay: RelayChatClient,
    @InjectServiceConfig() private readonly config: ChatConfig,
  ) {}

  /**
   * Everything that can refuse the request (chat, model, content, relay's own refusal) happens before
   * `sink.open()`, so a refusal is an ordinary error answer and leaves nothing half-written: a new user
   * message is kept (the chat continues from it with `regenerate`), a regenerated answer is replaced only
   * once the new one starts.
   */
  async send(
    userId: number,
    chatId: number,
    request: SendMessage,
    sink: AnswerSink,
    locale: Locale,
  ): Promise<void> {
    // Independent look-ups at once: they are on the way to the first token. The history is read only
    // once the chat is known to be the user's (require throws otherwise).
    const [chat, offered, box, history] = await Promise.all([
      this.chats.require(userId, chatId, locale),
      this.chats.offeredModels(userId),
      this.keyring.boxFor(userId),
      this.store.messages(chatId),
    ]);
    const model = this.chats.answeringModel(chat, offered, locale, request.model);

    let prompt: Message[];
    let userMessage: Message;
    let replacing: number[] = [];
    if (request.regenerate) {
      const last = history.findLastIndex((message) => message.role === 'user');
      if (last === -1) throw localizedException(ErrorCode.ValidationFailed, 'nothing_to_answer', locale);
      prompt = history.slice(0, last + 1);
      userMessage = history[last]!;
      replacing = history.slice(last + 1).map((message) => message.id);
    } else {
      const content = request.content!;
      if (!hasSubstance(content))
        throw localizedException(ErrorCode.ValidationFailed, 'message_empty', locale);
      const refused = refusedImageOf(content, this.config.CHAT_IMAGE_URL_ALLOWED_RANGES);
      if (refused) {
        throw localizedException(ErrorCode.ValidationFailed, 'image_url_refused', locale, { range: refused });
      }
      [userMessage] = await this.store.append(chatId, [
        { role: 'user', contentSealed: sealContent(box, content) },
      ]);
      prompt = [...history, userMessage!];
    }

    // Taken after the question is stored: messages are listed in id order.
    const answerId = await this.store.nextMessageId();
    const body = await this.open(
      userId,
      chat,
      answerId,
      {
        model,
        messages: this.toRelayMessages(chat, prompt, box),
        ...((request.temperature ?? chat.temperature) !== null &&
        (request.temperature ?? chat.temperature) !== undefined
          ? { temperature: request.temperature ?? chat.temperature }
          : {}),
      },
      sink.signal,
    );

    sink.open();
    await sink.send({
      type: 'start',
      user_message: toMessageView(userMessage!, box),
      assistant_message_id: answerId,
    });
    const end = await this.read(body, sink);
    const aborted = sink.signal.aborted && !end.complete;
    const failed = !aborted && (end.error !== undefined || !end.complete);
    const metadata: ChatMessageMetadata = {
      model,
      ...(end.charge
        ? { prompt_tokens: end.charge.prompt_tokens, completion_tokens: end.charge.completion_tokens }
        : {}),
      quota: end.charge?.quota ?? null,
      ...(end.charge?.answer_limit === undefined ? {} : { answer_limit: end.charge.answer_limit }),
      finish_reason: aborted ? 'aborted' : failed ? 'error' : (end.finishReason ?? 'stop'),
      ...(failed ? { error: end.error ?? 'The answer broke off' } : {}),
    };
    // A failed answer with no text is not stored: the chat ends on the user's message, which regenerate answers.
    const keep = end.text !== '' || !failed;
    const [answer] = keep
      ? await this.store.append(
          chatId,
          [
            {
              id: answerId,
              role: 'assistant',
              contentSealed: sealContent(box, end.text),
              metadata: JSON.stringify(metadata),
            },
          ],
          replacing,
        )
      : [undefined];
    if (failed) {
      await sink.send({ type: 'error', code: ErrorCode.UpstreamError, message: metadata.error! });
    } else if (answer) {
      await sink.send({ type: 'done', message: toMessageView(answer, box) });
    }
    sink.end();
  }

  /** The chat's title; named by a model from its first exchange the first time it is asked for. */
  async title(userId: number, chatId: number, locale: Locale): Promise<{ title: string }> {
    const chat = await this.chats.require(userId, chatId, locale);
    const box = await this.keyring.boxFor(userId);
    const current = box.open(chat.titleSealed);
    if (current !== NEW_CHAT_TITLE) return { title: current };
    const history = await this.store.messages(chatId);
    const question = history.find((message) => message.role === 'user');
    const answer = history.find((message) => message.role === 'assistant');
    if (!question || !answer) return { title: current };
    const model = this.chats.answeringModel(chat, await this.chats.offeredModels(userId), locale);
    const exchange = [question, answer]
      .map(
        (message) =>
          `${message.role}: ${textOf(openContent(box, message.contentSealed)).slice(0, TITLE_SOURCE_CHARS)}`,
      )
      .join('\n\n');
    const body = await this.open(
      userId,
      chat,
      `title-${randomUUID()}`,
      {
        model,
        messages: [
          { role: 'system', content: TITLE_INSTRUCTION },
          { role: 'user', content: exchange },
        ],
        max_tokens: this.config.CHAT_TITLE_MAX_TOKENS,
        temperature: 0.3,
      },
      AbortSignal.timeout(60_000),
    );
    const { text } = await readAnswer(body, () => undefined);
    const title = cleanTitle(text);
    if (title === '') return { title: current };
    await this.store.update(userId, chatId, { titleSealed: box.seal(title) });
    return { title };
  }

  private async open(
    userId: number,
    chat: Chat,
    answerId: number | string,
    body: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<AsyncIterable<Uint8Array>> {
    try {
      return await this.relay.complete({
        userId,
        chatId: chat.id,
        requestId: answerRequestId(chat.id, answerId),
        body,
        signal,
      });
    } catch (error) {
      if (error instanceof RelayRefusal)
        throw new AppException(errorCodeOfRelayStatus(error.status), error.message);
      throw error;
    }
  }

  /** Relays deltas to the browser; a stream cut by the browser's stop or a broken connection ends early. */
  private async read(body: AsyncIterable<Uint8Array>, sink: AnswerSink): Promise<AnswerEnd> {
    let text = '';
    try {
      return await readAnswer(body, async (delta) => {
        text += delta;
        await sink.send({ type: 'delta', content: delta });
      });
    } catch {
      return { text, complete: false, ...(sink.signal.aborted ? {} : { error: 'The answer broke off' }) };
    }
  }

  private toRelayMessages(
    chat: Chat,
    prompt: Message[],
    box: SecretBox,
  ): { role: string; content: ChatContent }[] {
    const system = box.open(chat.systemPromptSealed);
    return [
      ...(system.trim() === '' ? [] : [{ role: 'system', content: system }]),
      ...prompt.map((message) => ({ role: message.role, content: openContent(box, message.contentSealed) })),
    ];
  }
}

function cleanTitle(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'«“]+|["'»”.]+$/g, '')
    .trim()
    .slice(0, TITLE_MAX_LENGTH);
}
