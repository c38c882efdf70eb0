import {
  type ChatCompletionResponse,
  type ChatCompletionUsage,
  type JsonObject,
  type ToolCall,
  normalizeOpenAiUsage,
  MalformedUpstreamResponseError,
  UntranslatableRequestError,
  parseToolArguments,
  tokenCount,
} from '../../canonical';
import { geminiFinishReasonFromFinish } from './finish-reason';
import type {
  GeminiGenerateContentResponse,
  GeminiPart,
  GeminiUsageMetadata,
} from '../../providers/gemini/types';

/** Gemini clients need the arguments as an object; an upstream that produced broken JSON is at fault (502). */
export function functionCallPart(call: ToolCall): GeminiPart {
  try {
    return {
      functionCall: {
        id: call.id,
        name: call.function.name,
        args: parseToolArguments(call.function.arguments, call.function.name),
      },
    };
  } catch (error) {
    if (error instanceof UntranslatableRequestError) throw new MalformedUpstreamResponseError(error.message);
    throw error;
  }
}

/**
 * Canonical usage → usageMetadata. OpenAI counts reasoning inside completion tokens, Gemini reports
 * thoughts apart from candidates; the total is the same either way.
 */
export function geminiClientUsage(usage: ChatCompletionUsage | null | undefined): GeminiUsageMetadata {
  const normalized = normalizeOpenAiUsage(usage) ?? {
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
  };
  const thoughts = Math.min(
    tokenCount(usage?.completion_tokens_details?.reasoning_tokens),
    normalized.completion_tokens,
  );
  return {
    promptTokenCount: normalized.prompt_tokens,
    candidatesTokenCount: normalized.completion_tokens - thoughts,
    totalTokenCount: normalized.prompt_tokens + normalized.completion_tokens,
    ...(normalized.cached_tokens > 0 ? { cachedContentTokenCount: normalized.cached_tokens } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** Canonical chat completion → Gemini GenerateContentResponse (one candidate), for Gemini clients. */
export function chatResponseToGeminiClient(response: ChatCompletionResponse): JsonObject {
  const choice = response.choices[0];
  const message = choice?.message;
  const parts: GeminiPart[] = [];
  if (message?.reasoning_content !== undefined && message.reasoning_content !== '') {
    parts.push({ text: message.reasoning_content, thought: true });
  }
  if (typeof message?.content === 'string' && message.content !== '') parts.push({ text: message.content });
  for (const call of message?.tool_calls ?? []) parts.push(functionCallPart(call));
  const answer: GeminiGenerateContentResponse = {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: geminiFinishReasonFromFinish(choice?.finish_reason),
        index: 0,
      },
    ],
    usageMetadata: geminiClientUsage(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
  return { ...answer };
}
