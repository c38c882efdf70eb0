import { createHash } from 'node:crypto';
import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asString } from '../../request-fields';
import { invalidParameter, missingParameter } from './openai.family';

/** Words the fake flags, by the category OpenAI would put them in. */
const FLAGGED_WORDS: Readonly<Record<string, readonly string[]>> = {
  violence: ['kill', 'attack'],
  harassment: ['idiot', 'loser'],
  'self-harm': ['self-harm'],
};
const CATEGORIES = ['harassment', 'hate', 'self-harm', 'sexual', 'violence'] as const;

function inputTexts(input: unknown): string[] | undefined {
  if (typeof input === 'string') return [input];
  const items = asArray(input);
  if (items === undefined || items.length === 0) return undefined;
  const texts: string[] = [];
  for (const item of items) {
    if (typeof item === 'string') texts.push(item);
    else if (asObject(item)?.['type'] === 'text' && typeof asObject(item)?.['text'] === 'string')
      texts.push(asObject(item)!['text'] as string);
    else if (asObject(item)?.['type'] === 'image_url') texts.push('');
    else return undefined;
  }
  return texts;
}

/** One result per input, flagged by a fixed word list; scores are deterministic. */
function moderate(text: string) {
  const lower = text.toLowerCase();
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  for (const category of CATEGORIES) {
    const hit = (FLAGGED_WORDS[category] ?? []).some((word) => lower.includes(word));
    categories[category] = hit;
    scores[category] = hit ? 0.97 : 0.0001;
  }
  return { flagged: Object.values(categories).some(Boolean), categories, category_scores: scores };
}

/** POST /v1/moderations (OpenAI's shape; like OpenAI, no usage block). */
export function moderations(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  if (body['input'] === undefined) return missingParameter('input');
  const texts = inputTexts(body['input']);
  if (texts === undefined)
    return invalidParameter('input', "'input' must be a string, an array of strings or of content parts.");
  const model = asString(body['model']) ?? 'omni-moderation-latest';
  const id = createHash('sha256').update(texts.join('\n')).digest('hex').slice(0, 24);
  return jsonReply(200, { id: `modr-${id}`, model, results: texts.map(moderate) });
}
