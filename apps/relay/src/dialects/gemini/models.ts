import type { CallableModel } from '../../models/model-listing';

/** A model in the shape of Gemini's `models.list` / `models.get` (the fields the catalogue can fill). */
export interface GeminiModel {
  /** `models/<name>`, the resource name Gemini clients call `:generateContent` on. */
  name: string;
  baseModelId: string;
  displayName: string;
  /** The context window; absent when the catalogue does not say. */
  inputTokenLimit?: number;
  supportedGenerationMethods: string[];
}

export interface GeminiModelPage {
  models: GeminiModel[];
  /** Present when more models follow: pass it back as `pageToken`. */
  nextPageToken?: string;
}

/** Gemini's documented paging: 50 models a page unless asked, never more than 1000. */
export const GEMINI_DEFAULT_PAGE_SIZE = 50;
export const GEMINI_MAX_PAGE_SIZE = 1000;

/** What relay serves for every model, whatever the channel behind it. */
const GENERATION_METHODS = ['generateContent', 'streamGenerateContent'];

export function toGeminiModel(model: CallableModel): GeminiModel {
  return {
    name: `models/${model.name}`,
    baseModelId: model.name,
    displayName: model.name,
    ...(model.contextWindow > 0 ? { inputTokenLimit: model.contextWindow } : {}),
    supportedGenerationMethods: GENERATION_METHODS,
  };
}

function pageSizeOf(value: unknown): number {
  const size = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : 0;
  return size === 0 ? GEMINI_DEFAULT_PAGE_SIZE : Math.min(size, GEMINI_MAX_PAGE_SIZE);
}

/**
 * One page of a caller's models (sorted by name, as modelsForCaller gives them). The page token is
 * the last name served, so a page never repeats or skips a model when the catalogue changes between
 * pages.
 */
export function geminiModelPage(
  models: CallableModel[],
  query: { pageSize?: unknown; pageToken?: unknown },
): GeminiModelPage {
  const after =
    typeof query.pageToken === 'string' && query.pageToken !== ''
      ? Buffer.from(query.pageToken, 'base64url').toString('utf8')
      : undefined;
  const start = after === undefined ? 0 : models.findIndex((model) => model.name > after);
  const rest = start === -1 ? [] : models.slice(start);
  const page = rest.slice(0, pageSizeOf(query.pageSize));
  const last = page.at(-1);
  return {
    models: page.map(toGeminiModel),
    ...(rest.length > page.length && last !== undefined
      ? { nextPageToken: Buffer.from(last.name, 'utf8').toString('base64url') }
      : {}),
  };
}
