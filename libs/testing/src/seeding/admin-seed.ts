import { DEFAULT_FAKE_UPSTREAM_KEYS } from '../fake-upstream';

/** gpt-4o-mini's price per million tokens, which every model served by the fake upstream is given. */
export const FAKE_UPSTREAM_PRICE = {
  provider: 'openai',
  input_price: '0.15',
  output_price: '0.6',
  cached_input_price: '0.075',
  context_window: 128_000,
} as const;

/** One call of a signed-in operator to the platform's admin API, whatever client makes it. */
export type AdminCall = (
  path: string,
  method: 'PUT' | 'POST',
  body: unknown,
) => Promise<{ status: number; body?: unknown }>;

export interface AdminModelSeed {
  /** The model clients ask for; the upstream is asked for gpt-4o-mini. */
  model: string;
  /** The fake upstream's base URL. */
  upstreamUrl: string;
  /** The channel's name in the admin area; the model's when omitted. */
  channelName?: string;
}

/**
 * What an operator does before `model` can be served, through the admin API as the dashboard does
 * it: prices the model and adds an OpenAI channel on the fake upstream for the default group.
 */
export async function seedModelThroughAdmin(
  call: AdminCall,
  { model, upstreamUrl, channelName = model }: AdminModelSeed,
): Promise<void> {
  const accepted = async (step: string, answer: Promise<{ status: number; body?: unknown }>) => {
    const { status, body } = await answer;
    if (status !== 200) throw new Error(`${step} answered ${status}: ${JSON.stringify(body)}`);
  };
  await accepted(
    `pricing ${model}`,
    call(`/api/pricing/models/${model}`, 'PUT', {
      ...FAKE_UPSTREAM_PRICE,
      intelligence: 3,
      speed: 4,
      sota: false,
      deprecated: false,
    }),
  );
  await accepted(
    `the channel for ${model}`,
    call('/api/channel/', 'POST', {
      type: 1,
      name: channelName,
      key: DEFAULT_FAKE_UPSTREAM_KEYS.openai,
      base_url: upstreamUrl,
      models: model,
      model_mapping: JSON.stringify({ [model]: 'gpt-4o-mini' }),
      group: 'default',
    }),
  );
}
