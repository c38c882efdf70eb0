import { FAKE_SPEECH } from '../../generation/media-assets';
import type { Reply, UpstreamRequest } from '../../fake-upstream.reply';
import { asObject, asString } from '../../request-fields';
import { invalidParameter, missingParameter } from './openai.family';

/** POST /v1/audio/speech: a short silent clip in the asked format (mp3 by default, like OpenAI). */
export function audioSpeech(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  if (asString(body['model']) === undefined) return missingParameter('model');
  if (asString(body['input']) === undefined) return missingParameter('input');
  if (asString(body['voice']) === undefined) return missingParameter('voice');
  const format = asString(body['response_format']) ?? 'mp3';
  const audio = FAKE_SPEECH[format];
  if (audio === undefined) {
    return invalidParameter(
      'response_format',
      `The fake upstream produces only ${Object.keys(FAKE_SPEECH).join(', ')}; got '${format}'.`,
    );
  }
  return { kind: 'bytes', status: 200, contentType: audio.contentType, body: audio.bytes };
}
