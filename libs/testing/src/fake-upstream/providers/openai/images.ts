import { FAKE_PNG_BASE64 } from '../../generation/media-assets';
import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asObject, asPositiveInt, asString } from '../../request-fields';
import { invalidParameter, missingParameter } from './openai.family';

export const FAKE_IMAGE_PATH = '/fake-assets/image.png';
const MAX_IMAGES = 10;

/** POST /v1/images/generations: a tiny valid PNG, inline (b64_json) or as a link served by the fake. */
export function generateImages(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const prompt = asString(body['prompt']);
  if (prompt === undefined) return missingParameter('prompt');
  const count = asPositiveInt(body['n']) ?? 1;
  if (count > MAX_IMAGES) return invalidParameter('n', `'n' must be at most ${MAX_IMAGES}.`);
  const format = body['response_format'] ?? 'url';
  if (format !== 'url' && format !== 'b64_json') {
    return invalidParameter('response_format', "'response_format' must be 'url' or 'b64_json'.");
  }
  const image =
    format === 'url' ? { url: `${request.baseUrl}${FAKE_IMAGE_PATH}` } : { b64_json: FAKE_PNG_BASE64 };
  return jsonReply(200, {
    created: Math.floor(Date.now() / 1000),
    data: Array.from({ length: count }, () => ({ ...image, revised_prompt: prompt })),
  });
}
