import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { Forecast, runCases, WEATHER_TOOL, type CaseResults, type SdkSettings } from './cases';

const HELLO = [{ role: 'user' as const, content: 'Hello' }];

/** The openai Node SDK at its defaults (only baseURL and apiKey set): the cases openai_sdk.py runs. */
export function runOpenAiNode(run: SdkSettings): Promise<CaseResults> {
  const client = new OpenAI({ baseURL: `${run.origin}/v1`, apiKey: run.api_key });
  const model = run.models.openai_chat;
  return runCases(
    {
      module: 'openai',
      owns: (error) => error instanceof OpenAI.OpenAIError,
      status: (error) => (error instanceof OpenAI.APIError ? error.status : undefined),
      codeAndParam: (error) =>
        error instanceof OpenAI.APIError
          ? { code: error.code ?? null, param: error.param ?? null }
          : undefined,
    },
    {
      chat: async () => {
        const answer = await client.chat.completions.create({ model, messages: HELLO });
        return {
          content: answer.choices[0]?.message.content,
          finish_reason: answer.choices[0]?.finish_reason,
          completion_tokens: answer.usage?.completion_tokens,
        };
      },
      stream: async () => {
        const chunks = await client.chat.completions.create({
          model,
          messages: HELLO,
          stream: true,
          stream_options: { include_usage: true },
        });
        let text = '';
        let pieces = 0;
        let completionTokens: number | null = null;
        for await (const chunk of chunks) {
          const content = chunk.choices[0]?.delta.content;
          if (content) {
            text += content;
            pieces += 1;
          }
          if (chunk.usage) completionTokens = chunk.usage.completion_tokens;
        }
        return { text, pieces, completion_tokens: completionTokens };
      },
      tools: async () => {
        const answer = await client.chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
          tools: [{ type: 'function', function: WEATHER_TOOL }],
          tool_choice: 'required',
        });
        const call = answer.choices[0]?.message.tool_calls?.[0];
        if (call?.type !== 'function')
          throw new Error(`no function call: ${JSON.stringify(answer.choices[0])}`);
        return {
          finish_reason: answer.choices[0]?.finish_reason,
          name: call.function.name,
          arguments: JSON.parse(call.function.arguments) as unknown,
        };
      },
      structured: async () => {
        const answer = await client.chat.completions.parse({
          model,
          messages: [{ role: 'user', content: 'Forecast for Paris' }],
          response_format: zodResponseFormat(Forecast, 'forecast'),
        });
        const message = answer.choices[0]?.message;
        return { parsed: message?.parsed ?? null, refusal: message?.refusal ?? null };
      },
      embeddings: async () => {
        const answer = await client.embeddings.create({
          model: run.models.openai_embedding,
          input: ['first text', 'second text'],
        });
        return {
          count: answer.data.length,
          dimensions: answer.data.map((item) => item.embedding.length),
          floats: answer.data.every((item) => item.embedding.every((x) => typeof x === 'number')),
          prompt_tokens: answer.usage.prompt_tokens,
        };
      },
      models: async () => {
        const ids: string[] = [];
        for await (const entry of client.models.list()) ids.push(entry.id);
        return { ids };
      },
      invalid_param: async () => {
        await client.chat.completions.create({ model, messages: HELLO, max_tokens: 0 });
        return 'answered';
      },
      wrong_key: async () => {
        await new OpenAI({ baseURL: `${run.origin}/v1`, apiKey: run.wrong_key }).chat.completions.create({
          model,
          messages: HELLO,
        });
        return 'answered';
      },
    },
  );
}
