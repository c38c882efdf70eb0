import { completionBudget, completionText } from '../../generation/completion-text';
import {
  dataFrame,
  jsonReply,
  SSE_CONTENT_TYPE,
  type Reply,
  type UpstreamRequest,
} from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString } from '../../request-fields';
import { DONE_FRAME } from './chat-completions';
import { invalidParameter, missingParameter } from './openai.family';

function promptTexts(prompt: unknown): string[] | undefined {
  if (typeof prompt === 'string') return [prompt];
  const items = asArray(prompt);
  if (items === undefined || !items.every((item) => typeof item === 'string')) return undefined;
  return items as string[];
}

/** POST /v1/completions (legacy text completions; string or string-array prompts). */
export function completions(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const model = asString(body['model']) ?? request.params['deployment'];
  if (model === undefined) return missingParameter('model');
  if (body['prompt'] === undefined) return missingParameter('prompt');
  const prompts = promptTexts(body['prompt']);
  if (prompts === undefined)
    return invalidParameter('prompt', "'prompt' must be a string or an array of strings.");

  const promptTokens = request.promptTokens.count(prompts);
  const budget = completionBudget(request.settings.completionTokens, asPositiveInt(body['max_tokens']));
  const completion = completionText(budget.tokens, request.settings.chunks);
  const finishReason = budget.truncated ? 'length' : 'stop';
  const id = `cmpl-fake${request.sequence}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completion.tokens,
    total_tokens: promptTokens + completion.tokens,
  };

  if (body['stream'] !== true) {
    return jsonReply(200, {
      id,
      object: 'text_completion',
      created,
      model,
      choices: [{ text: completion.text, index: 0, logprobs: null, finish_reason: finishReason }],
      usage,
    });
  }
  const chunk = (text: string, finish: string | null): string =>
    dataFrame({
      id,
      object: 'text_completion',
      created,
      model,
      choices: [{ text, index: 0, logprobs: null, finish_reason: finish }],
    });
  let tail = chunk('', finishReason);
  if (asObject(body['stream_options'])?.['include_usage'] === true) {
    tail += dataFrame({ id, object: 'text_completion', created, model, choices: [], usage });
  }
  return {
    kind: 'stream',
    contentType: SSE_CONTENT_TYPE,
    head: '',
    deltas: completion.chunks.map((text) => chunk(text, null)),
    tail: tail + DONE_FRAME,
  };
}
