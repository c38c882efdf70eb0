import type { OpenAiStyleDescriptor } from '../openai/openai-style.adapter';

const standard = { pathPrefix: '/v1', auth: 'bearer', acceptsStreamOptions: true } as const;

export const DEEPSEEK: OpenAiStyleDescriptor = {
  ...standard,
  name: 'deepseek',
  defaultBaseUrl: 'https://api.deepseek.com',
};

/** GLM's API root already ends in its version (`/api/paas/v4`), so no prefix. */
export const ZHIPU_GLM: OpenAiStyleDescriptor = {
  ...standard,
  name: 'zhipu-glm',
  defaultBaseUrl: 'https://open.bigmodel.cn/api/paas/v4',
  pathPrefix: '',
};

export const MOONSHOT: OpenAiStyleDescriptor = {
  ...standard,
  name: 'moonshot',
  defaultBaseUrl: 'https://api.moonshot.cn',
};

/** DashScope's OpenAI-compatible mode. */
export const QWEN: OpenAiStyleDescriptor = {
  ...standard,
  name: 'qwen',
  defaultBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode',
};

/** Mistral rejects unknown fields such as `stream_options` and sends stream usage in its last chunk anyway. */
export const MISTRAL: OpenAiStyleDescriptor = {
  ...standard,
  name: 'mistral',
  defaultBaseUrl: 'https://api.mistral.ai',
  acceptsStreamOptions: false,
};

export const XAI: OpenAiStyleDescriptor = { ...standard, name: 'xai', defaultBaseUrl: 'https://api.x.ai' };

export const GROQ: OpenAiStyleDescriptor = {
  ...standard,
  name: 'groq',
  defaultBaseUrl: 'https://api.groq.com/openai',
};

export const OPENROUTER: OpenAiStyleDescriptor = {
  ...standard,
  name: 'openrouter',
  defaultBaseUrl: 'https://openrouter.ai/api',
};

/** A local Ollama serves its OpenAI-compatible API without keys. */
export const OLLAMA: OpenAiStyleDescriptor = {
  ...standard,
  name: 'ollama',
  defaultBaseUrl: 'http://localhost:11434',
  auth: 'none',
};

/** Any other OpenAI-compatible server: the channel must give its base_url; paths go below its `/v1`. */
export const CUSTOM: OpenAiStyleDescriptor = { ...standard, name: 'custom', pathPrefix: '/v1' };
