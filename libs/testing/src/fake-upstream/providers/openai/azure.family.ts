import { headerValue, type ProviderFamily } from '../../fake-upstream.provider';
import { jsonReply, type JsonReply } from '../../fake-upstream.reply';
import { openAiError } from './openai.family';

/** Azure answers access and throttling errors in its own `{"error":{"code","message"}}` shape. */
function azureError(status: number, message: string): JsonReply {
  return jsonReply(status, { error: { code: String(status), message } });
}

export const azureFamily: ProviderFamily = {
  name: 'azure',
  authenticate(headers, query, keys) {
    if (!query.has('api-version')) return azureError(404, 'Resource not found');
    if (headerValue(headers, 'api-key') === keys.azure) return null;
    return azureError(
      401,
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    );
  },
  error(status, message) {
    if (status === 429) {
      return azureError(
        429,
        message ??
          'Requests to the ChatCompletions_Create Operation have exceeded the rate limit of your current pricing tier. Please retry after 1 second.',
      );
    }
    return openAiError(status, message);
  },
};
