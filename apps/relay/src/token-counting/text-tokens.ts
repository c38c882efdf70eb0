// The CommonJS build by file path: TypeScript's "node" resolution ignores the package's exports map.
import type * as O200kBase from 'gpt-tokenizer/cjs/encoding/o200k_base';

/**
 * Special-token strings such as `<|endoftext|>` inside a prompt are ordinary text to count; by
 * default the tokenizer refuses them.
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

let encoding: typeof O200kBase | undefined;

/**
 * Loading the encoding's tables takes about 0.6 s and 70 MB, and most calls never need them (the
 * upstream reports usage): they are loaded by the first count, not at start-up.
 */
function o200kBase(): typeof O200kBase {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load must be a require
  encoding ??= require('gpt-tokenizer/cjs/encoding/o200k_base') as typeof O200kBase;
  return encoding;
}

/** Tokens of a text in o200k_base, the encoding of OpenAI's current models. */
export function countTextTokens(text: string): number {
  return text === '' ? 0 : o200kBase().countTokens(text, AS_PLAIN_TEXT);
}
