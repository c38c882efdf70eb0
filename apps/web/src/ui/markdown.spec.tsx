import { render, screen } from '@testing-library/react';
import '../i18n/i18n';
import { Markdown } from './markdown';

describe('Markdown', () => {
  it('renders GFM tables, lists and emphasis as elements', () => {
    const { container } = render(
      <Markdown text={'**bold** text\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |'} />,
    );
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('table td')).toHaveTextContent('1');
  });

  it('highlights a fenced code block by its language and offers to copy its text', () => {
    const { container } = render(<Markdown text={'```ts\nconst answer = 42;\n```'} />);
    const code = container.querySelector('pre code')!;
    expect(code.className).toContain('language-ts');
    expect(code.querySelector('.hljs-keyword')).toHaveTextContent('const');
    expect(code).toHaveTextContent('const answer = 42;');
    expect(screen.getByRole('button')).toBeInTheDocument();
  });

  it('drops raw HTML, scripts and javascript: links from the text', () => {
    const { container } = render(
      <Markdown
        text={'<script>alert(1)</script><img src=x onerror="alert(2)">\n\n[click](javascript:alert(3))'}
      />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
    expect(container.querySelector('a')?.getAttribute('href') ?? '').not.toContain('javascript:');
  });
});
