import { z } from 'zod/v4';

/** What one SDK call gave: a summary of the answer, or the error the SDK raised. */
export type CaseResult = { ok: unknown } | { error: CaseError };

/** An SDK's error: its class, its status and, where the SDK reads them (OpenAI's), the body's code and param. */
export interface CaseError {
  type: string;
  module: string;
  status: number | null;
  message: string;
  code?: string | null;
  param?: string | null;
}

/** The results of one SDK's cases by name, the same shape the Python scripts print (conformance.py). */
export type CaseResults = Record<string, CaseResult>;

/** What every SDK run is given: where the gateway is, the keys, and the run's model names by role. */
export interface SdkSettings {
  /** The gateway's origin (`http://127.0.0.1:PORT`); each SDK adds its own path, as it would to its provider's. */
  origin: string;
  api_key: string;
  /** A well-formed key nobody issued. */
  wrong_key: string;
  models: {
    openai_chat: string;
    openai_embedding: string;
    anthropic: string;
    gemini: string;
    gemini_embedding: string;
  };
}

export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

/** The structured answer every structured-output case asks for (conformance.py's `Forecast`); zod 4, which both SDKs' helpers take. */
export const Forecast = z.object({
  city: z.string(),
  days: z.number().int(),
  sunny: z.boolean(),
  unit: z.enum(['celsius', 'fahrenheit']),
  hours: z.array(z.number().int()),
});

export const FORECAST_JSON_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    sunny: { type: 'boolean' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    hours: { type: 'array', items: { type: 'integer' } },
  },
  required: ['city', 'days', 'sunny', 'unit', 'hours'],
  additionalProperties: false,
};

/** How a Node SDK's errors are told apart from anything else thrown. */
export interface SdkErrors {
  module: string;
  owns(error: unknown): boolean;
  status(error: unknown): number | undefined;
  /** The error body's `code` and `param` as the SDK exposes them, for SDKs that have them. */
  codeAndParam?(error: unknown): { code: string | null; param: string | null } | undefined;
}

/** Runs every case, whatever the others do, so one report shows everything that does not work. */
export async function runCases(
  sdk: SdkErrors,
  cases: Record<string, () => Promise<unknown>>,
): Promise<CaseResults> {
  const results: CaseResults = {};
  for (const [name, run] of Object.entries(cases)) {
    try {
      results[name] = { ok: await run() };
    } catch (error) {
      results[name] = {
        error: {
          type: error instanceof Error ? error.constructor.name : typeof error,
          module: sdk.owns(error) ? sdk.module : 'other',
          status: sdk.status(error) ?? null,
          message: String(error instanceof Error ? error.message : error).slice(0, 500),
          ...sdk.codeAndParam?.(error),
        },
      };
    }
  }
  return results;
}
