import { Children, isValidElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CopyCodeButton } from './copy-code-button';

/**
 * GitHub's sanitising rules, plus the `language-*` class on code that the highlighter reads and the
 * `hljs-*` classes it writes. Sanitising runs before highlighting, so the highlighter's own spans are
 * trusted and nothing from the text itself can add a script, a handler or a style.
 */
const sanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [...(defaultSchema.attributes?.['code'] ?? []), ['className', /^language-[\w-]+$/]],
  },
};

/** The text of a rendered code element (the highlighter splits it into spans). */
function textOf(node: ReactNode): string {
  return Children.toArray(node)
    .map((child) => {
      if (typeof child === 'string' || typeof child === 'number') return String(child);
      if (isValidElement<{ children?: ReactNode }>(child)) return textOf(child.props.children);
      return '';
    })
    .join('');
}

const components: Components = {
  pre({ children }) {
    const code = textOf(children).replace(/\n$/, '');
    return (
      <div className="group relative my-3">
        <pre className="overflow-x-auto rounded-lg bg-slate-900 p-3 pr-16 text-xs leading-relaxed text-slate-100 md:text-sm">
          {children}
        </pre>
        <CopyCodeButton code={code} />
      </div>
    );
  },
  a({ children, href }) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-indigo-600 underline">
        {children}
      </a>
    );
  },
  table({ children }) {
    return (
      <div className="my-3 overflow-x-auto">
        <table className="min-w-full border-collapse text-sm">{children}</table>
      </div>
    );
  },
  th({ children }) {
    return (
      <th className="border border-slate-300 bg-slate-50 px-2 py-1 text-left font-semibold">{children}</th>
    );
  },
  td({ children }) {
    return <td className="border border-slate-300 px-2 py-1">{children}</td>;
  },
};

interface MarkdownProps {
  text: string;
  className?: string;
}

/** Markdown from users, models or operators: GFM (tables, lists, strikethrough), sanitised, code highlighted. */
export function Markdown({ text, className }: MarkdownProps) {
  return (
    <div className={`markdown-body break-words ${className ?? ''}`} data-testid="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[
          [rehypeSanitize, sanitizeSchema],
          [rehypeHighlight, { detect: false, ignoreMissing: true }],
        ]}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
