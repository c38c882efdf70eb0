import type { CallableModel } from '../../models/model-listing';
import type { TokenPrices } from '../../models/token-prices';

/**
 * A model in OpenAI's `GET /v1/models` shape, with the fields of OpenRouter's model list that UIs and
 * OpenRouter clients read (`name`, `context_length`, `pricing`, `top_provider`). Null where the
 * catalogue does not say, as OpenRouter's list has it.
 */
export interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  /** The catalogue has no display names: the model's id (for a key's alias, the id of the model it is served on). */
  name: string;
  context_length: number | null;
  pricing?: TokenPrices;
  top_provider: { context_length: number | null; max_completion_tokens: null };
}

export function toOpenAiModel(model: CallableModel): OpenAiModel {
  const contextLength = model.contextWindow > 0 ? model.contextWindow : null;
  const rendered: OpenAiModel = {
    id: model.name,
    object: 'model',
    created: model.updatedAt,
    owned_by: model.provider,
    name: model.servedBy ?? model.name,
    context_length: contextLength,
    top_provider: { context_length: contextLength, max_completion_tokens: null },
  };
  if (model.pricing !== undefined) rendered.pricing = model.pricing;
  return rendered;
}
