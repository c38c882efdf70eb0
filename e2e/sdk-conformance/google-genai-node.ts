import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type, type Schema } from '@google/genai';
import { runCases, WEATHER_TOOL, type CaseResults, type SdkSettings } from './cases';

const COUNTED = 'How many tokens are in this sentence?';

/** `Forecast` in Gemini's own schema dialect (`responseSchema`), as the SDK's documentation writes it. */
const FORECAST_SCHEMA: Schema = {
  type: Type.OBJECT,
  properties: {
    city: { type: Type.STRING },
    days: { type: Type.INTEGER },
    sunny: { type: Type.BOOLEAN },
    unit: { type: Type.STRING, enum: ['celsius', 'fahrenheit'] },
    hours: { type: Type.ARRAY, items: { type: Type.INTEGER } },
  },
  required: ['city', 'days', 'sunny', 'unit', 'hours'],
};

/**
 * The @google/genai Node SDK at its defaults (only apiKey and the base URL set; its default Gemini API
 * version is v1beta): google_genai_sdk.py's cases.
 */
export function runGoogleGenAiNode(run: SdkSettings): Promise<CaseResults> {
  const client = new GoogleGenAI({ apiKey: run.api_key, httpOptions: { baseUrl: run.origin } });
  const model = run.models.gemini;
  return runCases(
    {
      module: '@google/genai',
      owns: (error) => error instanceof ApiError,
      status: (error) => (error instanceof ApiError ? error.status : undefined),
    },
    {
      generate: async () => {
        const answer = await client.models.generateContent({ model, contents: COUNTED });
        return {
          text: answer.text,
          finish_reason: answer.candidates?.[0]?.finishReason,
          prompt_tokens: answer.usageMetadata?.promptTokenCount,
          output_tokens: answer.usageMetadata?.candidatesTokenCount,
        };
      },
      stream: async () => {
        let text = '';
        let pieces = 0;
        for await (const chunk of await client.models.generateContentStream({ model, contents: 'Hello' })) {
          if (chunk.text) {
            text += chunk.text;
            pieces += 1;
          }
        }
        return { text, pieces };
      },
      tools: async () => {
        const answer = await client.models.generateContent({
          model,
          contents: 'Weather in Paris?',
          config: {
            tools: [
              {
                functionDeclarations: [
                  {
                    name: WEATHER_TOOL.name,
                    description: WEATHER_TOOL.description,
                    parameters: {
                      type: Type.OBJECT,
                      properties: { city: { type: Type.STRING } },
                      required: ['city'],
                    },
                  },
                ],
              },
            ],
            toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
          },
        });
        const call = answer.functionCalls?.[0];
        return { name: call?.name, args: call?.args };
      },
      structured: async () => {
        const answer = await client.models.generateContent({
          model,
          contents: 'Forecast for Paris',
          config: { responseMimeType: 'application/json', responseSchema: FORECAST_SCHEMA },
        });
        return { parsed: JSON.parse(answer.text ?? 'null') as unknown };
      },
      embeddings: async () => {
        const answer = await client.models.embedContent({
          model: run.models.gemini_embedding,
          contents: ['first text', 'second text'],
        });
        const vectors = (answer.embeddings ?? []).map((item) => item.values ?? []);
        return {
          count: vectors.length,
          dimensions: vectors.map((values) => values.length),
          floats: vectors.every((values) => values.every((x) => typeof x === 'number')),
        };
      },
      count_tokens: async () => {
        const counted = await client.models.countTokens({ model, contents: COUNTED });
        return { total_tokens: counted.totalTokens };
      },
      models: async () => {
        const names: string[] = [];
        for await (const entry of await client.models.list()) names.push(entry.name ?? '');
        return { names };
      },
      model_get: async () => ({ name: (await client.models.get({ model })).name }),
      wrong_key: async () => {
        await new GoogleGenAI({
          apiKey: run.wrong_key,
          httpOptions: { baseUrl: run.origin },
        }).models.generateContent({ model, contents: COUNTED });
        return 'answered';
      },
    },
  );
}
