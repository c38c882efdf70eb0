/**
 * The canonical chat shapes: OpenAI Chat Completions. Every client dialect converts its request to
 * these and renders its answer from them; every provider converts them to its upstream's request and
 * its upstream's answer back. Only the fields the relay reads or converts are typed; unknown fields
 * pass through.
 */

export type JsonObject = Record<string, unknown>;

export interface TextContentPart {
  type: 'text';
  text: string;
}

export interface ImageContentPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ContentPart = TextContentPart | ImageContentPart | ({ type: string } & JsonObject);

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system' | 'developer';
  content: string | ContentPart[];
  name?: string;
}

export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  name?: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content?: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
  reasoning_content?: string;
  name?: string;
}

export interface ToolMessage {
  role: 'tool';
  content: string | ContentPart[];
  tool_call_id: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonObject; strict?: boolean };
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema?: JsonObject; strict?: boolean } };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } & JsonObject;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  n?: number;
  stop?: string | string[] | null;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  user?: string;
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ResponseFormat;
  [field: string]: unknown;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number } & JsonObject;
  completion_tokens_details?: { reasoning_tokens?: number } & JsonObject;
}

export interface ChatCompletionChoice {
  index: number;
  message: {
    role: 'assistant';
    content: string | null;
    tool_calls?: ToolCall[];
    reasoning_content?: string;
    refusal?: string | null;
  };
  finish_reason: FinishReason | null;
  logprobs?: unknown;
}

export interface ChatCompletionResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: ChatCompletionUsage;
  [field: string]: unknown;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionChunkChoice {
  index: number;
  delta: {
    role?: 'assistant';
    content?: string | null;
    reasoning_content?: string;
    tool_calls?: ToolCallDelta[];
  };
  finish_reason: FinishReason | null;
  logprobs?: unknown;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  usage?: ChatCompletionUsage | null;
  [field: string]: unknown;
}
