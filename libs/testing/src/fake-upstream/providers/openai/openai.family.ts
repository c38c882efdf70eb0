import { headerValue, maskKey, type ProviderFamily } from '../../fake-upstream.provider';
import { jsonReply, type JsonReply } from '../../fake-upstream.reply';

interface OpenAiErrorDetails {
  type: string;
  code: string | null;
  param?: string | null;
}

const USUAL_ERRORS: Readonly<Record<number, OpenAiErrorDetails & { message: string }>> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: {
    message: 'Country, region, or territory not supported',
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
  },
  404: { message: 'The requested resource does not exist.', type: 'invalid_request_error', code: null },
  429: {
    message: 'Rate limit reached for requests. Please try again later.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: {
    message: 'The engine is currently overloaded, please try again later.',
    type: 'server_error',
    code: null,
  },
};

/** OpenAI's error envelope: `{"error":{"message","type","param","code"}}`. */
export function openAiError(
  status: number,
  message?: string,
  details?: Partial<OpenAiErrorDetails>,
): JsonReply {
  const usual = USUAL_ERRORS[status] ?? {
    message: `The server answered with status ${status}.`,
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  return jsonReply(status, {
    error: {
      message: message ?? usual.message,
      type: details?.type ?? usual.type,
      param: details?.param ?? null,
      code: details?.code !== undefined ? details.code : usual.code,
    },
  });
}

export function missingParameter(param: string): JsonReply {
  return openAiError(400, `Missing required parameter: '${param}'.`, {
    param,
    code: 'missing_required_parameter',
  });
}

export function invalidParameter(param: string, message: string): JsonReply {
  return openAiError(400, message, { param, code: 'invalid_value' });
}

export const openAiFamily: ProviderFamily = {
  name: 'openai',
  authenticate(headers, _query, keys) {
    const authorization = headerValue(headers, 'authorization');
    if (authorization === undefined || !authorization.startsWith('Bearer ') || authorization.length === 7) {
      return openAiError(
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        { code: null },
      );
    }
    const key = authorization.slice(7);
    if (key === keys.openai) return null;
    return openAiError(401, `Incorrect API key provided: ${maskKey(key)}.`);
  },
  error: (status, message) => openAiError(status, message),
};
