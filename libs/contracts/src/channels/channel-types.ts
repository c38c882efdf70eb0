/** new-api's channel type numbers for the upstream families Tollgate serves. */
export const CHANNEL_TYPES = {
  openai: 1,
  azure: 3,
  ollama: 4,
  custom: 8,
  anthropic: 14,
  qwen: 17,
  openrouter: 20,
  gemini: 24,
  moonshot: 25,
  zhipuGlm: 26,
  // Not in new-api's list; 29 is the number one-api (new-api's origin) gives Groq.
  groq: 29,
  mistral: 42,
  deepseek: 43,
  xai: 48,
} as const;

export type ChannelType = (typeof CHANNEL_TYPES)[keyof typeof CHANNEL_TYPES];

export const CHANNEL_TYPE_NUMBERS: readonly ChannelType[] = Object.values(CHANNEL_TYPES);

/** Types whose upstream has no public default address: a channel of these needs its own `base_url`. */
export const CHANNEL_TYPES_NEEDING_BASE_URL: readonly ChannelType[] = [
  CHANNEL_TYPES.azure,
  CHANNEL_TYPES.custom,
];

/** new-api's channel states: only the system sets AutoDisabled (relay reports, the re-enable job clears). */
export enum ChannelStatus {
  Enabled = 1,
  ManuallyDisabled = 2,
  AutoDisabled = 3,
}
