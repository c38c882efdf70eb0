import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import {
  Forecast,
  FORECAST_JSON_SCHEMA,
  runCases,
  WEATHER_TOOL,
  type CaseResults,
  type SdkSettings,
} from './cases';

const COUNTED = [{ role: 'user' as const, content: 'How many tokens are in this sentence?' }];

/** The @anthropic-ai/sdk Node SDK at its defaults (only baseURL and apiKey set): anthropic_sdk.py's cases. */
export function runAnthropicNode(run: SdkSettings): Promise<CaseResults> {
  const client = new Anthropic({ baseURL: run.origin, apiKey: run.api_key });
  const model = run.models.anthropic;
  const toolUse = (message: Anthropic.Message) => {
    const call = message.content.find((block) => block.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error(`no tool_use block: ${JSON.stringify(message.content)}`);
    return { stop_reason: message.stop_reason, name: call.name, input: call.input };
  };
  return runCases(
    {
      module: 'anthropic',
      owns: (error) => error instanceof Anthropic.AnthropicError,
      status: (error) => (error instanceof Anthropic.APIError ? error.status : undefined),
    },
    {
      messages: async () => {
        const message = await client.messages.create({ model, max_tokens: 64, messages: COUNTED });
        return {
          text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
          stop_reason: message.stop_reason,
          input_tokens: message.usage.input_tokens,
          output_tokens: message.usage.output_tokens,
          // Read from the answer's request-id header, as Anthropic's API sends it.
          request_id: typeof message._request_id === 'string' && message._request_id !== '',
        };
      },
      stream: async () => {
        const events = client.messages.stream({
          model,
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Hi' }],
        });
        let text = '';
        let pieces = 0;
        events.on('text', (piece) => {
          text += piece;
          pieces += 1;
        });
        const final = await events.finalMessage();
        return { text, pieces, stop_reason: final.stop_reason };
      },
      tools: async () =>
        toolUse(
          await client.messages.create({
            model,
            max_tokens: 256,
            messages: [{ role: 'user', content: 'Weather in Paris?' }],
            tools: [
              {
                name: WEATHER_TOOL.name,
                description: WEATHER_TOOL.description,
                input_schema: WEATHER_TOOL.parameters as Anthropic.Tool.InputSchema,
              },
            ],
            tool_choice: { type: 'any' },
          }),
        ),
      forced_tool: async () =>
        toolUse(
          await client.messages.create({
            model,
            max_tokens: 256,
            messages: [{ role: 'user', content: 'Forecast for Paris' }],
            tools: [
              {
                name: 'record_forecast',
                description: 'Record the forecast',
                input_schema: FORECAST_JSON_SCHEMA as Anthropic.Tool.InputSchema,
              },
            ],
            tool_choice: { type: 'tool', name: 'record_forecast' },
          }),
        ),
      structured: async () => {
        const message = await client.messages.parse({
          model,
          max_tokens: 256,
          messages: [{ role: 'user', content: 'Forecast for Paris' }],
          output_config: { format: zodOutputFormat(Forecast) },
        });
        return { parsed: message.parsed_output ?? null };
      },
      count_tokens: async () => {
        const counted = await client.messages.countTokens({ model, messages: COUNTED });
        return { input_tokens: counted.input_tokens };
      },
      models: async () => {
        const ids: string[] = [];
        const types = new Set<string>();
        for await (const entry of client.models.list()) {
          ids.push(entry.id);
          types.add(entry.type);
        }
        // Two a page: the SDK follows has_more and last_id (as after_id) to the end.
        const paged: string[] = [];
        for await (const entry of client.models.list({ limit: 2 })) paged.push(entry.id);
        return { ids, types: [...types], paged };
      },
      model_get: async () => {
        const found = await client.models.retrieve(model);
        return { id: found.id, type: found.type, created_at: found.created_at };
      },
      model_unknown: async () => {
        await client.models.retrieve(`${model}-unknown`);
        return 'answered';
      },
      wrong_key: async () => {
        await new Anthropic({ baseURL: run.origin, apiKey: run.wrong_key }).messages.create({
          model,
          max_tokens: 16,
          messages: COUNTED,
        });
        return 'answered';
      },
    },
  );
}
