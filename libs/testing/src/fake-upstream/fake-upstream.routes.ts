import type { IncomingHeaders, ProviderFamily } from './fake-upstream.provider';
import type { Reply, UpstreamRequest } from './fake-upstream.reply';
import { anthropicFamily } from './providers/anthropic/anthropic.family';
import { countMessageTokens, listAnthropicModels, messages } from './providers/anthropic/messages';
import { countTokens } from './providers/gemini/count-tokens';
import { batchEmbedContents, embedContent } from './providers/gemini/embed-content';
import { generateContent, listGeminiModels } from './providers/gemini/generate-content';
import { geminiFamily } from './providers/gemini/gemini.family';
import { audioSpeech } from './providers/openai/audio-speech';
import { audioTranscription } from './providers/openai/audio-transcriptions';
import { azureFamily } from './providers/openai/azure.family';
import { chatCompletions } from './providers/openai/chat-completions';
import { completions } from './providers/openai/completions';
import { embeddings } from './providers/openai/embeddings';
import { generateImages } from './providers/openai/images';
import { listModels } from './providers/openai/models';
import { moderations } from './providers/openai/moderations';
import { openAiFamily } from './providers/openai/openai.family';
import { rerank } from './providers/openai/rerank';
import { responses } from './providers/openai/responses';

export interface RouteDefinition {
  /** Key under which `stats().byRoute` counts the route. */
  id: string;
  family: ProviderFamily;
  /** The route reads a JSON body. */
  hasBody: boolean;
  /** The route reads a multipart/form-data body instead (file uploads). */
  multipart?: true;
  handle(request: UpstreamRequest): Reply;
}

export interface MatchedRoute {
  route: RouteDefinition;
  params: Record<string, string>;
}

const route = (
  id: string,
  family: ProviderFamily,
  hasBody: boolean,
  handle: RouteDefinition['handle'],
): RouteDefinition => ({
  id,
  family,
  hasBody,
  handle,
});

const upload = (id: string, handle: RouteDefinition['handle']): RouteDefinition => ({
  ...route(id, openAiFamily, false, handle),
  multipart: true,
});

const FIXED_ROUTES = new Map<string, RouteDefinition>([
  ['POST /v1/chat/completions', route('openai.chat.completions', openAiFamily, true, chatCompletions)],
  ['POST /v1/completions', route('openai.completions', openAiFamily, true, completions)],
  ['POST /v1/embeddings', route('openai.embeddings', openAiFamily, true, embeddings)],
  ['GET /v1/models', route('openai.models', openAiFamily, false, listModels)],
  ['POST /v1/images/generations', route('openai.images.generations', openAiFamily, true, generateImages)],
  ['POST /v1/audio/speech', route('openai.audio.speech', openAiFamily, true, audioSpeech)],
  [
    'POST /v1/audio/transcriptions',
    upload('openai.audio.transcriptions', (request) => audioTranscription(request, 'transcribe')),
  ],
  [
    'POST /v1/audio/translations',
    upload('openai.audio.translations', (request) => audioTranscription(request, 'translate')),
  ],
  ['POST /v1/responses', route('openai.responses', openAiFamily, true, responses)],
  ['POST /v1/moderations', route('openai.moderations', openAiFamily, true, moderations)],
  ['POST /v1/rerank', route('openai.rerank', openAiFamily, true, rerank)],
  ['POST /v1/messages', route('anthropic.messages', anthropicFamily, true, messages)],
  [
    'POST /v1/messages/count_tokens',
    route('anthropic.messages.count_tokens', anthropicFamily, true, countMessageTokens),
  ],
  ['GET /v1beta/models', route('gemini.models', geminiFamily, false, listGeminiModels)],
]);

const ANTHROPIC_MODELS = route('anthropic.models', anthropicFamily, false, listAnthropicModels);

const AZURE_ROUTES = new Map<string, RouteDefinition>([
  ['chat/completions', route('azure.chat.completions', azureFamily, true, chatCompletions)],
  ['completions', route('azure.completions', azureFamily, true, completions)],
  ['embeddings', route('azure.embeddings', azureFamily, true, embeddings)],
]);

/** Methods on `/v1beta/models/{model}:…` and, as Gemini's API answers them there too, `/v1/models/…`. */
const GEMINI_ROUTES = new Map<string, RouteDefinition>([
  [
    'generateContent',
    route('gemini.generateContent', geminiFamily, true, (request) => generateContent(request, false)),
  ],
  [
    'streamGenerateContent',
    route('gemini.streamGenerateContent', geminiFamily, true, (request) => generateContent(request, true)),
  ],
  ['countTokens', route('gemini.countTokens', geminiFamily, true, countTokens)],
  ['embedContent', route('gemini.embedContent', geminiFamily, true, embedContent)],
  ['batchEmbedContents', route('gemini.batchEmbedContents', geminiFamily, true, batchEmbedContents)],
]);

const GEMINI_MODEL_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):([A-Za-z]+)$/;
const AZURE_DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/(.+)$/;

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function matchRoute(
  method: string,
  pathname: string,
  headers: IncomingHeaders,
): MatchedRoute | undefined {
  const fixed = FIXED_ROUTES.get(`${method} ${pathname}`);
  if (fixed !== undefined) {
    // OpenAI and Anthropic share GET /v1/models; Anthropic's clients always send anthropic-version.
    if (fixed.id === 'openai.models' && headers['anthropic-version'] !== undefined)
      return { route: ANTHROPIC_MODELS, params: {} };
    return { route: fixed, params: {} };
  }
  if (method !== 'POST') return undefined;
  const gemini = GEMINI_MODEL_PATH.exec(pathname);
  if (gemini !== null) {
    const geminiRoute = GEMINI_ROUTES.get(gemini[2]!);
    return geminiRoute === undefined
      ? undefined
      : { route: geminiRoute, params: { model: decodePathSegment(gemini[1]!) } };
  }
  const azure = AZURE_DEPLOYMENT_PATH.exec(pathname);
  if (azure !== null) {
    const azureRoute = AZURE_ROUTES.get(azure[2]!);
    return azureRoute === undefined
      ? undefined
      : { route: azureRoute, params: { deployment: decodePathSegment(azure[1]!) } };
  }
  return undefined;
}
