import { z } from 'zod';
import { chatContentSchema } from './chat-requests';

/** One chat in the list and in its own answers. */
export const chatViewSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  model: z.string().nullable(),
  temperature: z.number().nullable(),
  system_prompt: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ChatView = z.infer<typeof chatViewSchema>;

export const CHAT_MESSAGE_ROLES = ['user', 'assistant'] as const;
export type ChatMessageRole = (typeof CHAT_MESSAGE_ROLES)[number];

/**
 * What an answer's metadata records (SPEC §3: stored and sent as a JSON string). Counts and cost
 * arrive with the answer's charge; `quota` is what the balance moved by (quota units), null until known.
 */
export const chatMessageMetadataSchema = z.object({
  model: z.string().optional(),
  prompt_tokens: z.number().int().nonnegative().optional(),
  completion_tokens: z.number().int().nonnegative().optional(),
  quota: z.number().int().nonnegative().nullable().optional(),
  /** `stop`, `length`, … from the model; `aborted` when the user stopped it; `error` when it failed. */
  finish_reason: z.string().optional(),
  error: z.string().optional(),
  /**
   * The balance paid for no answer of the usual length: the answer was held to this many tokens
   * (relay's `answer_limit`), and ends with `finish_reason: length` when it reached it.
   */
  answer_limit: z.number().int().positive().optional(),
  /**
   * Set by the chat when it lists a stopped answer whose cost billing had not recorded by the time it
   * certainly would have (the call never reached billing's usage log, e.g. relay failed before billing's
   * event): the cost is not known and will not be, so it is no longer asked for.
   */
  cost_unknown: z.literal(true).optional(),
});
export type ChatMessageMetadata = z.infer<typeof chatMessageMetadataSchema>;

export const chatMessageViewSchema = z.object({
  id: z.number().int().positive(),
  chat_id: z.number().int().positive(),
  role: z.enum(CHAT_MESSAGE_ROLES),
  content: chatContentSchema,
  /** A JSON string of ChatMessageMetadata (SPEC §3); parse with parseChatMessageMetadata. */
  metadata: z.string(),
  created_at: z.number().int(),
});
export type ChatMessageView = z.infer<typeof chatMessageViewSchema>;

/** SPEC §3: metadata is a JSON string, parsed on read; anything unreadable reads as empty. */
export function parseChatMessageMetadata(metadata: string): ChatMessageMetadata {
  try {
    const parsed = chatMessageMetadataSchema.safeParse(JSON.parse(metadata));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** `GET /api/chat/models`: the models this user may chat with (admin's chat_models that a channel serves for the user's group). */
export const chatModelsSchema = z.array(z.string());
