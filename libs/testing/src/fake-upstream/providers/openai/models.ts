import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';

/** A fixed creation time keeps the listing byte-identical between runs. */
const MODEL_CREATED = 1_700_000_000;

/** GET /v1/models */
export function listModels(request: UpstreamRequest): Reply {
  return jsonReply(200, {
    object: 'list',
    data: request.settings.models.map((id) => ({
      id,
      object: 'model',
      created: MODEL_CREATED,
      owned_by: 'fake-upstream',
    })),
  });
}
