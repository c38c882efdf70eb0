import { CHANNEL_TYPES, type ChannelType } from '@tollgate/contracts';
import { anthropicAdapter } from './anthropic/anthropic.adapter';
import { azureAdapter } from './azure/azure.adapter';
import { geminiAdapter } from './gemini/gemini.adapter';
import { createOpenAiStyleAdapter, openAiAdapter } from './openai/openai-style.adapter';
import {
  CUSTOM,
  DEEPSEEK,
  GROQ,
  MISTRAL,
  MOONSHOT,
  OLLAMA,
  OPENROUTER,
  QWEN,
  XAI,
  ZHIPU_GLM,
} from './openai-compatible/descriptors';
import type { ProviderAdapter } from './provider-adapter';

const ADAPTERS: ReadonlyMap<number, ProviderAdapter> = new Map<ChannelType, ProviderAdapter>([
  [CHANNEL_TYPES.openai, openAiAdapter],
  [CHANNEL_TYPES.azure, azureAdapter],
  [CHANNEL_TYPES.anthropic, anthropicAdapter],
  [CHANNEL_TYPES.gemini, geminiAdapter],
  [CHANNEL_TYPES.deepseek, createOpenAiStyleAdapter(DEEPSEEK)],
  [CHANNEL_TYPES.zhipuGlm, createOpenAiStyleAdapter(ZHIPU_GLM)],
  [CHANNEL_TYPES.moonshot, createOpenAiStyleAdapter(MOONSHOT)],
  [CHANNEL_TYPES.qwen, createOpenAiStyleAdapter(QWEN)],
  [CHANNEL_TYPES.mistral, createOpenAiStyleAdapter(MISTRAL)],
  [CHANNEL_TYPES.xai, createOpenAiStyleAdapter(XAI)],
  [CHANNEL_TYPES.groq, createOpenAiStyleAdapter(GROQ)],
  [CHANNEL_TYPES.openrouter, createOpenAiStyleAdapter(OPENROUTER)],
  [CHANNEL_TYPES.ollama, createOpenAiStyleAdapter(OLLAMA)],
  [CHANNEL_TYPES.custom, createOpenAiStyleAdapter(CUSTOM)],
]);

export class UnknownChannelTypeError extends Error {
  constructor(readonly channelType: number) {
    super(`no adapter for channel type ${channelType}`);
    this.name = 'UnknownChannelTypeError';
  }
}

export function adapterForChannelType(type: number): ProviderAdapter {
  const adapter = ADAPTERS.get(type);
  if (adapter === undefined) throw new UnknownChannelTypeError(type);
  return adapter;
}

export function supportedChannelTypes(): number[] {
  return [...ADAPTERS.keys()];
}
