import type { ModelsListing } from './provider-adapter';

class NotAModelListError extends Error {
  override readonly name = 'NotAModelListError';
  constructor() {
    super('The upstream did not answer with a list of models');
  }
}

const ids = (items: unknown, field: 'id' | 'name'): string[] => {
  if (!Array.isArray(items)) throw new NotAModelListError();
  return items
    .map((item) =>
      item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined,
    )
    .filter((id): id is string => typeof id === 'string' && id !== '');
};

/** OpenAI's and Anthropic's shape: `{data: [{id}]}`. */
export const parseDataIds = (body: unknown): string[] => ids((body as { data?: unknown } | null)?.data, 'id');

/** Gemini's shape: `{models: [{name: "models/gemini-2.5-flash"}]}`, ids without the `models/` prefix. */
export const parseGeminiModels = (body: unknown): string[] =>
  ids((body as { models?: unknown } | null)?.models, 'name').map((name) => name.replace(/^models\//, ''));

export const listingFrom = (
  request: ModelsListing['request'],
  parse: ModelsListing['parse'],
): ModelsListing => ({ request, parse });
