import { z } from 'zod';

/** SPEC §3: a new chat's title. */
export const NEW_CHAT_TITLE = 'New Chat';
/** SPEC §7 / §9: chat list defaults. */
export const CHAT_LIST_DEFAULT_PAGE_SIZE = 20;
export const CHAT_TITLE_MAX_LENGTH = 200;
export const CHAT_SYSTEM_PROMPT_MAX_LENGTH = 8_000;
/** The text of one message; larger prompts belong in the API, not the chat box. */
export const CHAT_MESSAGE_MAX_LENGTH = 100_000;
/** At most this many images in one message. */
export const CHAT_MESSAGE_MAX_IMAGES = 4;
/** An image as an https URL or a data URL, OpenAI's `image_url.url`. */
export const CHAT_IMAGE_URL_MAX_LENGTH = 8 * 1024 * 1024;

const title = z.string().trim().min(1).max(CHAT_TITLE_MAX_LENGTH);
const model = z.string().trim().min(1).max(128);
const temperature = z.number().min(0).max(2);
const systemPrompt = z.string().max(CHAT_SYSTEM_PROMPT_MAX_LENGTH);

/** Per-chat settings: model (null = the first offered), temperature (null = the model's default), system prompt. */
export const chatSettingsSchema = z.object({
  model: model.nullable(),
  temperature: temperature.nullable(),
  system_prompt: systemPrompt,
});
export type ChatSettings = z.infer<typeof chatSettingsSchema>;

/** `POST /api/chat`: every field optional; the title starts as 'New Chat'. */
export const createChatSchema = chatSettingsSchema.partial().strict();
export type CreateChat = z.infer<typeof createChatSchema>;

/** `PUT /api/chat/{id}`: rename and/or change settings. */
export const updateChatSchema = chatSettingsSchema
  .partial()
  .extend({ title })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'nothing to change' });
export type UpdateChat = z.infer<typeof updateChatSchema>;

/** OpenAI's content parts: text and images (vision models). */
export const chatContentPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(CHAT_MESSAGE_MAX_LENGTH) }).strict(),
  z
    .object({
      type: z.literal('image_url'),
      image_url: z
        .object({
          url: z
            .string()
            .max(CHAT_IMAGE_URL_MAX_LENGTH)
            .regex(
              /^(https:\/\/|data:image\/(png|jpeg|gif|webp);base64,)/,
              'must be an https URL or an image data URL',
            ),
          detail: z.enum(['auto', 'low', 'high']).optional(),
        })
        .strict(),
    })
    .strict(),
]);
export type ChatContentPart = z.infer<typeof chatContentPartSchema>;

/** A message's content: plain text, or parts as OpenAI's chat API takes them. */
export const chatContentSchema = z.union([
  z.string().max(CHAT_MESSAGE_MAX_LENGTH),
  z
    .array(chatContentPartSchema)
    .min(1)
    .max(CHAT_MESSAGE_MAX_IMAGES + 1),
]);
export type ChatContent = z.infer<typeof chatContentSchema>;

/**
 * `POST /api/chat/{id}/messages`: either a new user message (`content`), or `regenerate: true` to
 * answer the last user message again (replacing its answer, if any; this is also how a chat continues
 * after a failed answer). `model` and `temperature` override the chat's settings for this answer.
 */
export const sendMessageSchema = z
  .object({
    content: chatContentSchema.optional(),
    regenerate: z.boolean().optional(),
    model: model.optional(),
    temperature: temperature.optional(),
  })
  .strict()
  .refine((body) => (body.content === undefined) === (body.regenerate === true), {
    message: 'send either content or regenerate: true',
  });
export type SendMessage = z.infer<typeof sendMessageSchema>;
