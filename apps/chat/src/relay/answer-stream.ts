import { CHAT_CHARGE_EVENT, chatChargeSchema, type ChatCharge } from '@tollgate/contracts';
import { createParser } from 'eventsource-parser';

/** How an answer from relay ended. */
export interface AnswerEnd {
  text: string;
  /** The model's reason (`stop`, `length`, …); undefined when the stream stopped early. */
  finishReason?: string;
  /** What the call cost, from relay's charge event; absent when the stream did not complete. */
  charge?: ChatCharge;
  /** Relay reported a failure after the stream started. */
  error?: string;
  /** `[DONE]` arrived. */
  complete: boolean;
}

interface OpenAiChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  error?: { message?: string };
}

/**
 * Reads relay's OpenAI-format stream: text deltas go to `onDelta` as they arrive; the charge event and
 * `[DONE]` close it. Stops early (without throwing) when `body` ends or throws because of an abort.
 */
export async function readAnswer(
  body: AsyncIterable<Uint8Array>,
  onDelta: (text: string) => Promise<void> | void,
): Promise<AnswerEnd> {
  const end: AnswerEnd = { text: '', complete: false };
  const pending: string[] = [];
  const parser = createParser({
    onEvent(event) {
      if (event.event === CHAT_CHARGE_EVENT) {
        const charge = chatChargeSchema.safeParse(JSON.parse(event.data));
        if (charge.success) end.charge = charge.data;
        return;
      }
      if (event.data === '[DONE]') {
        end.complete = true;
        return;
      }
      const chunk = JSON.parse(event.data) as OpenAiChunk;
      if (chunk.error) {
        end.error = chunk.error.message ?? 'The answer failed';
        return;
      }
      const choice = chunk.choices?.[0];
      if (choice?.delta?.content) pending.push(choice.delta.content);
      if (choice?.finish_reason) end.finishReason = choice.finish_reason;
    },
  });
  const decoder = new TextDecoder();
  for await (const bytes of body) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    for (const text of pending.splice(0)) {
      end.text += text;
      await onDelta(text);
    }
  }
  return end;
}
