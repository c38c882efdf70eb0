/** new-api's channel type numbers for the families Tollgate serves. */
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
  // Groq is not in new-api's list; 29 is the number one-api (new-api's origin) gives it.
  groq: 29,
  mistral: 42,
  deepseek: 43,
  xai: 48,
} as const;

export type ChannelType = (typeof CHANNEL_TYPES)[keyof typeof CHANNEL_TYPES];
