import { embeddingBase64, embeddingVector } from '../../generation/embedding-vector';
import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString } from '../../request-fields';
import { invalidParameter, missingParameter } from './openai.family';

interface EmbeddingInput {
  /** What the vector is derived from. */
  key: string;
  /** Text to tokenize, or the token count when the input is already tokens. */
  text: string | null;
  tokenCount: number;
}

function isTokenArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number');
}

/** OpenAI accepts a string, an array of strings, an array of tokens or an array of token arrays. */
function embeddingInputs(input: unknown): EmbeddingInput[] | undefined {
  if (typeof input === 'string') return [{ key: input, text: input, tokenCount: 0 }];
  if (isTokenArray(input)) return [{ key: input.join(','), text: null, tokenCount: input.length }];
  const items = asArray(input);
  if (items === undefined || items.length === 0) return undefined;
  const inputs: EmbeddingInput[] = [];
  for (const item of items) {
    if (typeof item === 'string') inputs.push({ key: item, text: item, tokenCount: 0 });
    else if (isTokenArray(item)) inputs.push({ key: item.join(','), text: null, tokenCount: item.length });
    else return undefined;
  }
  return inputs;
}

/** POST /v1/embeddings: deterministic unit vectors, float arrays or base64 as asked. */
export function embeddings(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const model = asString(body['model']) ?? request.params['deployment'];
  if (model === undefined) return missingParameter('model');
  if (body['input'] === undefined) return missingParameter('input');
  const inputs = embeddingInputs(body['input']);
  if (inputs === undefined)
    return invalidParameter('input', "'input' must be a string, an array of strings or of token arrays.");
  const format = body['encoding_format'] ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    return invalidParameter('encoding_format', "'encoding_format' must be 'float' or 'base64'.");
  }
  const dimensions = asPositiveInt(body['dimensions']) ?? request.settings.embeddingDimensions;

  let promptTokens = 0;
  const data = inputs.map((input, index) => {
    promptTokens += input.text === null ? input.tokenCount : request.promptTokens.count([input.text]);
    const vector = embeddingVector(input.key, dimensions);
    return {
      object: 'embedding',
      index,
      embedding: format === 'base64' ? embeddingBase64(vector) : Array.from(vector),
    };
  });
  return jsonReply(200, {
    object: 'list',
    data,
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  });
}
