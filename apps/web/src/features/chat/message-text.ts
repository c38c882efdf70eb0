import type { ChatContent } from '@tollgate/contracts';

/** The text parts of a message's content, one per line. */
export function textOfContent(content: ChatContent): string {
  return typeof content === 'string'
    ? content
    : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
