import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject } from '../../request-fields';
import { geminiPromptText } from './generate-content';
import { geminiError } from './gemini.family';

/**
 * POST /v1beta|v1/models/{model}:countTokens: `{contents}` or `{generateContentRequest}` (which may
 * add a system instruction and tools), counted as generateContent counts the same prompt.
 */
export function countTokens(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const wrapped = asObject(body['generateContentRequest']);
  if (wrapped !== undefined && body['contents'] !== undefined) {
    return geminiError(400, 'contents and generateContentRequest cannot both be set.');
  }
  const prompt = wrapped ?? body;
  if ((asArray(prompt['contents']) ?? []).length === 0) {
    return geminiError(400, '* CountTokensRequest.contents: contents is not specified');
  }
  const totalTokens = request.promptTokens.count(geminiPromptText(prompt).parts);
  return jsonReply(200, {
    totalTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }],
  });
}
