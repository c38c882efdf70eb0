import {
  computeChatCompletionTokenCount,
  type ChatCompletionFunctionCallOption,
  type ChatCompletionFunctionDefinition,
  type ChatCompletionFunctionParameters,
  type ChatMessage as TokenizerMessage,
} from 'gpt-tokenizer/cjs/functionCalling';
import type { ChatCompletionRequest, ChatMessage, ContentPart, FunctionTool, ToolChoice } from '../canonical';
import { imageTokens } from './image-tokens';
import { countTextTokens } from './text-tokens';

function textOf(content: string | ContentPart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content)
    if (part.type === 'text' && typeof part['text'] === 'string') text += part['text'];
  return text;
}

function imageTokensOf(content: string | ContentPart[] | null | undefined): number {
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const part of content) tokens += imageTokens(part);
  return tokens;
}

/**
 * The tokenizer's chat counter knows one function call per assistant message, so each further
 * parallel call counts as a message of its own (a few tokens more than OpenAI's rendering).
 */
function tokenizerMessages(message: ChatMessage): TokenizerMessage[] {
  const base: TokenizerMessage = { role: message.role, content: textOf(message.content) };
  if ('name' in message && message.name !== undefined) base.name = message.name;
  if (message.role !== 'assistant' || message.tool_calls === undefined || message.tool_calls.length === 0)
    return [base];
  return message.tool_calls.map((call, index) => ({
    ...(index === 0 ? base : { role: 'assistant', content: '' }),
    function_call: { name: call.function.name, arguments: call.function.arguments },
  }));
}

function functionDefinition(tool: FunctionTool): ChatCompletionFunctionDefinition {
  return {
    name: tool.function.name,
    ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
    // Any JSON Schema: the tokenizer renders the types it knows and counts the rest as `any`.
    ...(tool.function.parameters === undefined
      ? {}
      : { parameters: tool.function.parameters as unknown as ChatCompletionFunctionParameters }),
  };
}

function functionCallOption(choice: ToolChoice | undefined): ChatCompletionFunctionCallOption | undefined {
  if (choice === undefined || choice === 'auto' || choice === 'required') return undefined;
  if (choice === 'none') return 'none';
  return { name: choice.function.name };
}

/**
 * Prompt tokens as OpenAI counts them for chat: per message 3 tokens plus role, name and content,
 * 3 to prime the reply, function definitions in the form the model reads them, and a fixed estimate
 * per image.
 */
export function countPromptTokens(request: ChatCompletionRequest): number {
  const messages = request.messages.flatMap(tokenizerMessages);
  let images = 0;
  for (const message of request.messages) images += imageTokensOf(message.content);
  const functions = (request.tools ?? []).map(functionDefinition);
  const functionCall = functionCallOption(request.tool_choice);
  let tokens: number;
  try {
    tokens = computeChatCompletionTokenCount(
      {
        messages,
        ...(functions.length > 0 ? { functions } : {}),
        ...(functionCall === undefined ? {} : { function_call: functionCall }),
      },
      countTextTokens,
    );
  } catch {
    // A parameters schema the renderer cannot walk (a property that is not an object): count it as JSON.
    tokens =
      computeChatCompletionTokenCount({ messages }, countTextTokens) +
      countTextTokens(JSON.stringify(request.tools ?? []));
  }
  return tokens + images;
}
