import { CopyCodeButton } from './copy-code-button';

interface CodeBlockProps {
  code: string;
  language?: string;
  testId?: string;
}

/** Monospaced code with a copy button. */
export function CodeBlock({ code, language, testId }: CodeBlockProps) {
  return (
    <div className="group relative">
      <pre
        data-testid={testId}
        data-language={language}
        className="overflow-x-auto rounded-lg bg-slate-900 p-3 pt-10 text-xs leading-relaxed text-slate-100 md:pt-3 md:pr-28 md:text-sm"
      >
        <code>{code}</code>
      </pre>
      <CopyCodeButton code={code} />
    </div>
  );
}
