import {
  type ChatCompletionChoice,
  type ChatCompletionResponse,
  type ToolCall,
  toOpenAiUsage,
  MalformedUpstreamResponseError,
} from '../../canonical';
import type { ResponseContext } from '../provider-adapter';
import { finishReasonFromGemini } from './finish-reason';
import { geminiToolCallId } from './tool-call-id';
import type { GeminiCandidate, GeminiGenerateContentResponse, GeminiPart } from './types';
import { normalizeGeminiUsage } from './usage';

export interface ConvertedParts {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
}

/** Text, thought text and function calls of one candidate's parts; `firstToolIndex` numbers calls across chunks. */
export function convertParts(
  parts: GeminiPart[],
  responseId: string | undefined,
  firstToolIndex: number,
): ConvertedParts {
  const converted: ConvertedParts = { text: '', reasoning: '', toolCalls: [] };
  for (const part of parts) {
    if (part.functionCall !== undefined) {
      const index = firstToolIndex + converted.toolCalls.length;
      converted.toolCalls.push({
        id: geminiToolCallId(responseId, index, part.functionCall.id),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === 'string') {
      if (part.thought === true) converted.reasoning += part.text;
      else converted.text += part.text;
    }
  }
  return converted;
}

/** One Gemini candidate as an OpenAI choice. */
function choiceOf(
  candidate: GeminiCandidate | undefined,
  position: number,
  response: GeminiGenerateContentResponse,
): ChatCompletionChoice {
  const converted = convertParts(candidate?.content?.parts ?? [], response.responseId, 0);
  const calledTools = converted.toolCalls.length > 0;
  // A prompt blocked by safety filters has no candidate at all.
  const finishReason =
    candidate === undefined && response.promptFeedback?.blockReason !== undefined
      ? 'content_filter'
      : finishReasonFromGemini(candidate?.finishReason, calledTools);
  return {
    index: candidate?.index ?? position,
    message: {
      role: 'assistant',
      content: converted.text === '' && calledTools ? null : converted.text,
      ...(calledTools ? { tool_calls: converted.toolCalls } : {}),
      ...(converted.reasoning === '' ? {} : { reasoning_content: converted.reasoning }),
    },
    finish_reason: finishReason,
  };
}

/** Gemini generateContent answer → OpenAI chat completion, a choice per candidate (`n` asks `candidateCount`). */
export function fromGeminiResponse(body: unknown, context: ResponseContext): ChatCompletionResponse {
  const response = body as GeminiGenerateContentResponse | null;
  if (typeof response !== 'object' || response === null) {
    throw new MalformedUpstreamResponseError('Gemini answer is not an object');
  }
  const candidates = response.candidates ?? [];
  return {
    id: response.responseId ?? '',
    object: 'chat.completion',
    created: context.created,
    model: response.modelVersion ?? context.model,
    choices:
      candidates.length <= 1
        ? [choiceOf(candidates[0], 0, response)]
        : candidates.map((candidate, position) => choiceOf(candidate, position, response)),
    usage: toOpenAiUsage(normalizeGeminiUsage(response.usageMetadata)),
  };
}
