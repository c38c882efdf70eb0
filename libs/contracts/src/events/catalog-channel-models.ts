import { z } from 'zod';

/**
 * catalog.channel-models: what each channel serves and for whom, without anything else of the channel
 * (no key, sealed or not, no address). Admin publishes it beside catalog.channel, in the same
 * transaction as every change, keyed by the channel's id (a tombstone when it is deleted); billing
 * reads it to show each caller only the prices of the models their group can call.
 */
export const catalogChannelModelsV1 = z.object({
  v: z.literal(1),
  id: z.number().int().positive(),
  /** The channel takes calls (status Enabled); a disabled one serves nobody until it is enabled again. */
  enabled: z.boolean(),
  groups: z.array(z.string()),
  /** The model names callers ask for: the channel's `models` and its `model_mapping` keys. */
  models: z.array(z.string()),
  updated_at: z.number().int().nonnegative(),
});
export type CatalogChannelModels = z.infer<typeof catalogChannelModelsV1>;
