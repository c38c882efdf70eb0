import { completionBudget, completionText, splitIntoPieces } from '../../generation/completion-text';
import { fakeToolArguments } from '../../generation/tool-arguments';
import { chooseTool, type ToolSpec } from '../../generation/tool-choice';
import {
  eventFrame,
  jsonReply,
  SSE_CONTENT_TYPE,
  type Reply,
  type UpstreamRequest,
} from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString, type JsonObject } from '../../request-fields';
import { openAiContentText } from './chat-completions';
import { missingParameter } from './openai.family';

/** Text of the `input` items: messages (string or parts) and function-call outputs. */
function inputTexts(input: unknown): { all: string[]; last: string } {
  if (typeof input === 'string') return { all: [input], last: input };
  const all: string[] = [];
  let last = '';
  for (const item of asArray(input) ?? []) {
    const object = asObject(item);
    const texts =
      object?.['type'] === 'function_call_output'
        ? [asString(object['output']) ?? '']
        : openAiContentText(object?.['content']);
    all.push(...texts);
    last = texts.join('\n');
  }
  return { all, last };
}

function toolSpecs(tools: unknown): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const tool of asArray(tools) ?? []) {
    const object = asObject(tool);
    const name = asString(object?.['name']);
    if (object?.['type'] === 'function' && name !== undefined)
      specs.push({ name, parameters: object['parameters'] });
  }
  return specs;
}

type OutputItem = JsonObject & { id: string };

interface ResponseAnswer {
  response: JsonObject;
  /** The final output item (message or function call). */
  item: OutputItem;
  pieces: readonly string[];
  text: string;
}

function usage(inputTokens: number, outputTokens: number): JsonObject {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
}

function answer(request: UpstreamRequest, body: JsonObject, model: string): ResponseAnswer {
  const texts = inputTexts(body['input']);
  const instructions = asString(body['instructions']);
  const inputTokens = request.promptTokens.count(
    instructions === undefined ? texts.all : [instructions, ...texts.all],
  );
  const toolChoice = body['tool_choice'];
  const tool = chooseTool({
    tools: toolSpecs(body['tools']),
    disabled: toolChoice === 'none',
    required: toolChoice === 'required',
    forcedName: asString(asObject(toolChoice)?.['name']),
    lastMessageText: texts.last,
  });
  const response: JsonObject = {
    id: `resp_fake${request.sequence}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: instructions ?? null,
    max_output_tokens: asPositiveInt(body['max_output_tokens']) ?? null,
    model,
    output: [],
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: toolChoice ?? 'auto',
    tools: asArray(body['tools']) ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    metadata: {},
  };
  if (tool !== undefined) {
    const args = JSON.stringify(fakeToolArguments(tool.parameters));
    response['usage'] = usage(inputTokens, request.promptTokens.count([args]));
    const item: OutputItem = {
      id: `fc_fake${request.sequence}`,
      type: 'function_call',
      status: 'completed',
      call_id: `call_fake${request.sequence}`,
      name: tool.name,
      arguments: args,
    };
    return { response, item, pieces: splitIntoPieces(args, request.settings.chunks), text: args };
  }
  const budget = completionBudget(
    request.settings.completionTokens,
    asPositiveInt(body['max_output_tokens']),
  );
  const completion = completionText(budget.tokens, request.settings.chunks);
  if (budget.truncated) {
    response['status'] = 'incomplete';
    response['incomplete_details'] = { reason: 'max_output_tokens' };
  }
  response['usage'] = usage(inputTokens, completion.tokens);
  const item: OutputItem = {
    id: `msg_fake${request.sequence}`,
    type: 'message',
    status: budget.truncated ? 'incomplete' : 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: completion.text, annotations: [] }],
  };
  return { response, item, pieces: completion.chunks, text: completion.text };
}

function streamReply(result: ResponseAnswer): Reply {
  let sequence = 0;
  const frame = (type: string, fields: JsonObject): string =>
    eventFrame(type, { type, sequence_number: sequence++, ...fields });
  const { response, item } = result;
  const pending = { ...response, status: 'in_progress', output: [], usage: null, incomplete_details: null };
  const isMessage = item['type'] === 'message';
  const itemRef = { item_id: item.id, output_index: 0 };

  let head =
    frame('response.created', { response: pending }) + frame('response.in_progress', { response: pending });
  head += isMessage
    ? frame('response.output_item.added', {
        output_index: 0,
        item: { ...item, status: 'in_progress', content: [] },
      }) +
      frame('response.content_part.added', {
        ...itemRef,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      })
    : frame('response.output_item.added', {
        output_index: 0,
        item: { ...item, status: 'in_progress', arguments: '' },
      });

  const deltas = result.pieces.map((delta) =>
    isMessage
      ? frame('response.output_text.delta', { ...itemRef, content_index: 0, delta, logprobs: [] })
      : frame('response.function_call_arguments.delta', { ...itemRef, delta }),
  );

  let tail = isMessage
    ? frame('response.output_text.done', { ...itemRef, content_index: 0, text: result.text, logprobs: [] }) +
      frame('response.content_part.done', {
        ...itemRef,
        content_index: 0,
        part: { type: 'output_text', text: result.text, annotations: [] },
      })
    : frame('response.function_call_arguments.done', { ...itemRef, arguments: result.text });
  tail += frame('response.output_item.done', { output_index: 0, item });
  const finalEvent = response['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed';
  tail += frame(finalEvent, { response: { ...response, output: [item] } });
  return { kind: 'stream', contentType: SSE_CONTENT_TYPE, head, deltas, tail };
}

/** POST /v1/responses (plain and streamed with the Responses API event types). */
export function responses(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const model = asString(body['model']);
  if (model === undefined) return missingParameter('model');
  if (body['input'] === undefined) return missingParameter('input');
  const result = answer(request, body, model);
  if (body['stream'] === true) return streamReply(result);
  return jsonReply(200, { ...result.response, output: [result.item] });
}
