// The CommonJS build by file path: TypeScript's "node" resolution ignores the package's exports map.
import { countTokens } from 'gpt-tokenizer/cjs/encoding/o200k_base';

/**
 * Special-token strings such as `<|endoftext|>` inside a prompt are ordinary text to count; by
 * default the tokenizer refuses them.
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of a text in o200k_base, the encoding of OpenAI's current models. */
export function countTextTokens(text: string): number {
  return text === '' ? 0 : countTokens(text, AS_PLAIN_TEXT);
}
