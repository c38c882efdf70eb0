import { z } from 'zod';
import { chatMessageViewSchema } from './chat-views';

/**
 * `POST /api/chat/{id}/messages` answers `text/event-stream`: one JSON object per `data:` line.
 * `start` names the stored user message and the answer's id; `delta` carries text as it arrives;
 * `done` the stored answer (metadata with tokens and cost); `error` ends a failed answer (what was
 * generated before it is stored). Errors before the stream starts answer in the `/api` envelope.
 */
export const chatStreamEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    user_message: chatMessageViewSchema,
    assistant_message_id: z.number().int().positive(),
  }),
  z.object({ type: z.literal('delta'), content: z.string() }),
  z.object({ type: z.literal('done'), message: chatMessageViewSchema }),
  z.object({
    type: z.literal('error'),
    /** An ErrorCode (insufficient_quota turns into a link to top up). */
    code: z.string(),
    message: z.string(),
  }),
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;
