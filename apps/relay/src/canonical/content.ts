import type { ContentPart } from './chat';

/** The text of a message's content: a string, or its text parts joined. */
export function contentText(content: string | ContentPart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .filter(
      (part): part is { type: 'text'; text: string } =>
        part.type === 'text' && typeof part['text'] === 'string',
    )
    .map((part) => part.text)
    .join('');
}

export function contentParts(content: string | ContentPart[] | null | undefined): ContentPart[] {
  if (content === null || content === undefined) return [];
  return typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : content;
}
