import type { CallableModel } from '../../models/model-listing';

/** A model in OpenAI's `GET /v1/models` shape. */
export interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export function toOpenAiModel(model: CallableModel): OpenAiModel {
  return { id: model.name, object: 'model', created: model.updatedAt, owned_by: model.provider };
}
