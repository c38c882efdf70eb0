/** The provider the catalogue prices a model under (`price.provider`); undefined for an unpriced model. */
export interface ModelProviders {
  providerOf(model: string): string | undefined;
}

/**
 * OpenRouter's model-name prefixes that name a provider otherwise than the catalogue does. The others
 * (openai, anthropic, google, deepseek, qwen, …) are the catalogue's names already.
 */
const OPENROUTER_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  'x-ai': 'xai',
  'z-ai': 'zhipu',
  moonshotai: 'moonshot',
  mistralai: 'mistral',
});

/**
 * The catalogue's model an OpenRouter-style name means: `openai/gpt-4o-mini` is `gpt-4o-mini` when the
 * catalogue prices `gpt-4o-mini` under the provider `openai` (or under the provider an OpenRouter prefix
 * names otherwise: `x-ai/` is `xai`). Anything else is the name as it is: a name without a slash (one
 * `indexOf`), a name the catalogue prices itself (an id with a slash wins over the prefix), a prefix that
 * is not the model's provider (no guessing: the call is refused as an unknown model).
 */
export function withoutProviderPrefix(name: string, catalogue: ModelProviders): string {
  const slash = name.indexOf('/');
  if (slash < 0 || catalogue.providerOf(name) !== undefined) return name;
  const model = name.slice(slash + 1);
  const provider = catalogue.providerOf(model);
  if (provider === undefined) return name;
  return namesProvider(name.slice(0, slash), provider) ? model : name;
}

/** Whether an OpenRouter prefix (`x-ai`) is the catalogue's provider (`xai`, `XAI`). */
export function namesProvider(prefix: string, provider: string): boolean {
  const named = Object.hasOwn(OPENROUTER_PREFIXES, prefix) ? OPENROUTER_PREFIXES[prefix] : prefix;
  return named === provider.toLowerCase();
}
