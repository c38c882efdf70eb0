import type {
  ChatCompletionChunk,
  ChatCompletionUsage,
  FinishReason,
  JsonObject,
  ToolCall,
} from '../../canonical';
import { functionCallPart, geminiClientUsage } from './response';
import { geminiFinishReasonFromFinish } from './finish-reason';
import type { GeminiGenerateContentResponse, GeminiPart } from '../../providers/gemini/types';

export interface GeminiClientStreamWriter {
  /** The GenerateContentResponse objects one canonical chunk completes (often none or one). */
  push(chunk: ChatCompletionChunk): JsonObject[];
  /** The last object, with the finish reason and usage, once the canonical stream is over. */
  end(): JsonObject[];
}

/**
 * Canonical chunks → the GenerateContentResponse objects of `:streamGenerateContent`. Text and
 * thought deltas go out as parts as they come. Gemini sends a function call whole, with its
 * arguments as an object, so a tool call is held until its arguments are complete: when another
 * call starts, when text resumes or when the choice finishes. The finish reason and usage wait for
 * the end, because OpenAI-style streams report usage after the finishing chunk.
 */
class CanonicalToGeminiStream implements GeminiClientStreamWriter {
  private responseId = '';
  private modelVersion = '';
  private readonly openCalls = new Map<number, ToolCall>();
  private finishReason: FinishReason | null = null;
  private usage: ChatCompletionUsage | undefined;

  push(chunk: ChatCompletionChunk): JsonObject[] {
    if (this.responseId === '') this.responseId = chunk.id;
    if (chunk.model !== '') this.modelVersion = chunk.model;
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) return [];
    const parts: GeminiPart[] = [];
    const { reasoning_content: reasoning, content: text, tool_calls: callDeltas } = choice.delta;
    if (reasoning !== undefined && reasoning !== '') {
      parts.push(...this.completeCalls(), { text: reasoning, thought: true });
    }
    if (typeof text === 'string' && text !== '') parts.push(...this.completeCalls(), { text });
    for (const delta of callDeltas ?? []) {
      parts.push(...this.completeCalls(delta.index));
      const call = this.openCalls.get(delta.index) ?? {
        id: '',
        type: 'function' as const,
        function: { name: '', arguments: '' },
      };
      if (delta.id !== undefined && delta.id !== '') call.id = delta.id;
      if (delta.function?.name !== undefined && delta.function.name !== '')
        call.function.name = delta.function.name;
      call.function.arguments += delta.function?.arguments ?? '';
      this.openCalls.set(delta.index, call);
    }
    if (choice.finish_reason !== null) {
      this.finishReason = choice.finish_reason;
      parts.push(...this.completeCalls());
    }
    return parts.length > 0 ? [this.object(parts)] : [];
  }

  end(): JsonObject[] {
    const parts = this.completeCalls();
    // Clients that read candidates[0].content.parts[0] find an empty text part, as Gemini sends.
    return [this.object(parts.length > 0 ? parts : [{ text: '' }], true)];
  }

  /** Function-call parts for the open calls other than `stillOpenIndex`, whose arguments are now whole. */
  private completeCalls(stillOpenIndex?: number): GeminiPart[] {
    const parts: GeminiPart[] = [];
    for (const [index, call] of this.openCalls) {
      if (index === stillOpenIndex) continue;
      this.openCalls.delete(index);
      parts.push(functionCallPart(call));
    }
    return parts;
  }

  private object(parts: GeminiPart[], last = false): JsonObject {
    const response: GeminiGenerateContentResponse = {
      candidates: [
        {
          content: { role: 'model', parts },
          ...(last ? { finishReason: geminiFinishReasonFromFinish(this.finishReason) } : {}),
          index: 0,
        },
      ],
      ...(last ? { usageMetadata: geminiClientUsage(this.usage) } : {}),
      modelVersion: this.modelVersion,
      responseId: this.responseId,
    };
    return { ...response };
  }
}

export function createGeminiClientStreamWriter(): GeminiClientStreamWriter {
  return new CanonicalToGeminiStream();
}
