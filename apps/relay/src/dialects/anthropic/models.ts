import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../../errors/relay-error';
import type { CallableModel } from '../../models/model-listing';

/**
 * A model in the shape of Anthropic's `models.list` / `models.retrieve` (`ModelInfo`): every field the
 * SDKs type, those the catalogue cannot fill as `null`. Every model a key may call is `active`.
 */
export interface AnthropicModel {
  type: 'model';
  id: string;
  display_name: string;
  /** RFC 3339; when the model's price last changed, the only date the catalogue has. */
  created_at: string;
  capabilities: null;
  deprecated_at: null;
  lifecycle: 'active';
  line: null;
  /** The context window; null when the catalogue does not say. */
  max_input_tokens: number | null;
  max_tokens: null;
  retires_at: null;
}

export interface AnthropicModelPage {
  data: AnthropicModel[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** Anthropic's documented paging: 20 models a page unless asked, from 1 to 1000. */
export const ANTHROPIC_DEFAULT_PAGE_SIZE = 20;
export const ANTHROPIC_MAX_PAGE_SIZE = 1000;

export function toAnthropicModel(model: CallableModel): AnthropicModel {
  return {
    type: 'model',
    id: model.name,
    display_name: model.name,
    created_at: new Date(model.updatedAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    capabilities: null,
    deprecated_at: null,
    lifecycle: 'active',
    line: null,
    max_input_tokens: model.contextWindow > 0 ? model.contextWindow : null,
    max_tokens: null,
    retires_at: null,
  };
}

function invalid(message: string): RelayError {
  return new RelayError(ErrorCode.ValidationFailed, `Invalid request: ${message}`);
}

function limitOf(value: unknown): number {
  if (value === undefined) return ANTHROPIC_DEFAULT_PAGE_SIZE;
  const limit = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : 0;
  if (limit < 1 || limit > ANTHROPIC_MAX_PAGE_SIZE)
    throw invalid(`limit: must be an integer from 1 to ${ANTHROPIC_MAX_PAGE_SIZE}`);
  return limit;
}

function cursorOf(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(`${name}: must be a model id`);
  return value;
}

/**
 * One page of a caller's models (sorted by name, as modelsForCaller gives them), paged as Anthropic's
 * API is: `after_id` gives the `limit` models after that id, `before_id` the `limit` models before it,
 * and `has_more` says whether more lie further in the same direction (the SDK then asks again with
 * `last_id` as `after_id`, or `first_id` as `before_id`). The cursor is compared by name, not looked up,
 * so a page never repeats or skips a model when the one it names left the list meanwhile.
 */
export function anthropicModelPage(
  models: CallableModel[],
  query: { limit?: unknown; after_id?: unknown; before_id?: unknown },
): AnthropicModelPage {
  const limit = limitOf(query.limit);
  const after = cursorOf('after_id', query.after_id);
  const before = cursorOf('before_id', query.before_id);
  if (after !== undefined && before !== undefined) throw invalid('give after_id or before_id, not both');
  let page: CallableModel[];
  let hasMore: boolean;
  if (before !== undefined) {
    const end = models.findIndex((model) => model.name >= before);
    const earlier = end === -1 ? models : models.slice(0, end);
    page = earlier.slice(Math.max(0, earlier.length - limit));
    hasMore = earlier.length > page.length;
  } else {
    const start = after === undefined ? 0 : models.findIndex((model) => model.name > after);
    const later = start === -1 ? [] : models.slice(start);
    page = later.slice(0, limit);
    hasMore = later.length > page.length;
  }
  return {
    data: page.map(toAnthropicModel),
    has_more: hasMore,
    first_id: page[0]?.name ?? null,
    last_id: page.at(-1)?.name ?? null,
  };
}
