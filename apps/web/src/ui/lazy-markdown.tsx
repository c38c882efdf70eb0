import { lazy, Suspense } from 'react';

const Markdown = lazy(() => import('./markdown').then((m) => ({ default: m.Markdown })));

/**
 * Markdown for texts the shell shows on every page (notice, incidents): the renderer and its
 * highlighter load in their own chunk, the text shows as plain lines meanwhile.
 */
export function LazyMarkdown({ text, className }: { text: string; className?: string }) {
  return (
    <Suspense fallback={<p className={`whitespace-pre-line ${className ?? ''}`}>{text}</p>}>
      <Markdown text={text} className={className} />
    </Suspense>
  );
}
