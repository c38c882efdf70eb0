/**
 * Deterministic answer text whose o200k token count is known without running the tokenizer:
 * the first word and every " word" after it are single tokens, and the tokenizer's pre-split on
 * spaces keeps them apart, so N words are exactly N tokens.
 */
const FIRST_WORD = 'Lorem';
const NEXT_WORDS = [
  'ipsum',
  'dolor',
  'sit',
  'amet',
  'consectetur',
  'adipiscing',
  'elit',
  'sed',
  'do',
  'eiusmod',
  'tempor',
  'incididunt',
  'ut',
  'labore',
  'et',
  'dolore',
  'magna',
  'aliqua',
  'enim',
  'ad',
  'minim',
  'veniam',
  'quis',
  'exercitation',
  'laboris',
  'nisi',
  'ex',
  'ea',
  'commodo',
  'consequat',
  'in',
  'reprehenderit',
  'voluptate',
  'velit',
  'esse',
  'fugiat',
  'nulla',
  'pariatur',
].map((word) => ` ${word}`);

export interface CompletionText {
  /** The whole answer. */
  text: string;
  /** The answer cut into stream chunks; joined they give `text`. */
  chunks: readonly string[];
  /** Number of tokens in `text`. */
  tokens: number;
}

function word(index: number): string {
  return index === 0 ? FIRST_WORD : NEXT_WORDS[(index - 1) % NEXT_WORDS.length]!;
}

/** Splits `count` items into `parts` consecutive runs whose sizes differ by at most one. */
export function evenSplitBounds(count: number, parts: number): number[] {
  const bounds: number[] = [];
  for (let part = 0; part <= parts; part += 1) bounds.push(Math.floor((part * count) / parts));
  return bounds;
}

function buildCompletionText(tokens: number, chunkCount: number): CompletionText {
  const parts = Math.max(1, Math.min(chunkCount, tokens));
  const bounds = evenSplitBounds(tokens, parts);
  const chunks: string[] = [];
  for (let part = 0; part < parts; part += 1) {
    let chunk = '';
    for (let index = bounds[part]!; index < bounds[part + 1]!; index += 1) chunk += word(index);
    chunks.push(chunk);
  }
  return { text: chunks.join(''), chunks, tokens };
}

/** Few distinct (tokens, chunks) pairs occur in a run, so every answer is built once. */
const cache = new Map<string, CompletionText>();
const CACHE_LIMIT = 256;

export function completionText(tokens: number, chunkCount: number): CompletionText {
  const key = `${tokens}:${chunkCount}`;
  let cached = cache.get(key);
  if (cached === undefined) {
    cached = buildCompletionText(tokens, chunkCount);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, cached);
  }
  return cached;
}

/** Cuts any string into at most `parts` pieces without splitting a code point. */
export function splitIntoPieces(text: string, parts: number): string[] {
  const codePoints = Array.from(text);
  if (codePoints.length === 0) return [''];
  const bounds = evenSplitBounds(codePoints.length, Math.max(1, Math.min(parts, codePoints.length)));
  const pieces: string[] = [];
  for (let part = 0; part < bounds.length - 1; part += 1) {
    pieces.push(codePoints.slice(bounds[part], bounds[part + 1]).join(''));
  }
  return pieces;
}

export interface CompletionBudget {
  tokens: number;
  /** The request's max-tokens field cut the answer short. */
  truncated: boolean;
}

export function completionBudget(
  configuredTokens: number,
  requestMaxTokens: number | undefined,
): CompletionBudget {
  if (requestMaxTokens !== undefined && requestMaxTokens < configuredTokens) {
    return { tokens: requestMaxTokens, truncated: true };
  }
  return { tokens: configuredTokens, truncated: false };
}
