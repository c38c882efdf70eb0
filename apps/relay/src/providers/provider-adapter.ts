import type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatCompletionResponse,
  EmbeddingsAnswer,
  EmbeddingsRequest,
  JsonObject,
  NormalizedUsage,
} from '../canonical';
import type { SseEvent } from '../sse/sse';
import type { ChannelTarget, UpstreamHttpRequest, UpstreamUploadRequest } from './upstream-request';

/** What a response transform needs beyond the upstream body, given by the caller so transforms stay pure. */
export interface ResponseContext {
  /** Unix seconds for `created`. */
  created: number;
  /** The model the upstream was asked for, for answers that do not name it. */
  model: string;
}

export type ProviderFamily = 'openai' | 'azure' | 'anthropic' | 'gemini';

/** The OpenAI endpoints other than chat that the relay forwards with the model mapped. */
export type PassThroughOperation =
  | 'completions'
  | 'embeddings'
  | 'images.generations'
  | 'audio.speech'
  | 'responses'
  | 'moderations'
  /** The Jina/Cohere shape new-api relays (`query`, `documents`, `top_n`). */
  | 'rerank';

/** The OpenAI endpoints that take a file upload (multipart/form-data) instead of JSON. */
export type UploadOperation = 'audio.transcriptions' | 'audio.translations';

/** An upload's form, the model already mapped by the caller: fields as sent, the file as a Blob. */
export interface UploadForm {
  fields: Readonly<Record<string, string>>;
  file: { filename: string; blob: Blob };
}

/** Turns one upstream's stream events into canonical chunks, keeping what it needs between events. */
export interface ChatStreamTransformer {
  push(event: SseEvent): ChatCompletionChunk[];
  /** Called when the upstream body ended; returns whatever the end of the stream completes. */
  end(): ChatCompletionChunk[];
  /** The usage reported so far (also after a cut stream), if the upstream reported any. */
  usage(): NormalizedUsage | undefined;
}

/** How a family lists the models a key may use (GET), for admin's "fetch models". */
export interface ModelsListing {
  request(target: ChannelTarget): { url: string; headers: Record<string, string> };
  /** The model ids in the answer; throws when the answer is not such a list. */
  parse(body: unknown): string[];
}

/** A family's own prompt counter (Anthropic's count_tokens, Gemini's countTokens): exact, and free. */
export interface TokenCounting {
  /** Counts the prompt the chat call with this canonical request would send. */
  request(request: ChatCompletionRequest, target: ChannelTarget): UpstreamHttpRequest;
  /** The prompt's token count; throws MalformedUpstreamResponseError on any other answer. */
  parse(body: unknown): number;
}

/** A family's embeddings endpoint, for clients whose dialect differs from it (Gemini clients). */
export interface EmbeddingsEndpoint {
  request(input: EmbeddingsRequest, target: ChannelTarget): UpstreamHttpRequest;
  /** Throws MalformedUpstreamResponseError when the answer is not one vector per text. */
  parse(body: unknown, texts: number): EmbeddingsAnswer;
}

export interface ProviderAdapter {
  readonly family: ProviderFamily;
  /** Absent when the family cannot count a prompt: the relay then counts with its own tokenizer. */
  readonly tokenCounting?: TokenCounting;
  /** Absent for families without embeddings (Anthropic): their channels are skipped for such calls. */
  readonly embeddings?: EmbeddingsEndpoint;
  /** Absent for families without a model list (Azure lists deployments, not models). */
  readonly modelsListing?: ModelsListing;
  /** A short name for logs and metrics labels. */
  readonly name: string;
  buildChatRequest(request: ChatCompletionRequest, target: ChannelTarget): UpstreamHttpRequest;
  parseChatResponse(body: unknown, context: ResponseContext): ChatCompletionResponse;
  createChatStreamTransformer(context: ResponseContext): ChatStreamTransformer;
  /** Throws UnsupportedOperationError when the family has no such endpoint. */
  buildPassThroughRequest(
    operation: PassThroughOperation,
    body: JsonObject,
    target: ChannelTarget,
  ): UpstreamHttpRequest;
  /** Absent for families without upload endpoints (their channels are skipped for such calls). */
  buildUploadRequest?(
    operation: UploadOperation,
    form: UploadForm,
    target: ChannelTarget,
  ): UpstreamUploadRequest;
}
