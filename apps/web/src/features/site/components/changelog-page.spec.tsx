import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, ok, renderApp } from '../../../../test/render-app';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
// The route's chunk (with the Markdown renderer) is compiled when this file loads, not inside a
// find* timeout: a fresh CI machine has no transform cache.
import './changelog-page';

const release = (id: number, version: string, releaseDate: string) => ({
  id,
  version,
  title: `Release ${version}`,
  content: `Notes of ${version}`,
  release_date: releaseDate,
  created_time: 1_760_000_000,
  updated_time: 1_760_000_000,
});

describe('changelog page', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('renders release notes as Markdown, sanitised', async () => {
    answerApi({
      '/api/versions': ok({
        page: 1,
        page_size: 20,
        total: 1,
        items: [
          {
            ...release(3, '1.2.0', '2026-11-24'),
            content: '**Chat** is here\n\n- streamed answers\n\n<script>x()</script>',
          },
        ],
      }),
    });
    renderApp('/changelog');
    expect((await screen.findByText('Chat')).tagName).toBe('STRONG');
    expect(screen.getByText('streamed answers').tagName).toBe('LI');
    expect(document.querySelector('main script')).toBeNull();
  });

  it("shows admin's releases with their day, and the next page on request", async () => {
    const fetch = answerApi({
      '/api/versions': (_init, url) =>
        url.searchParams.get('p') === '2'
          ? ok({ page: 2, page_size: 20, total: 21, items: [release(1, '1.0.0', '2026-01-05')] })
          : ok({ page: 1, page_size: 20, total: 21, items: [release(2, '1.1.0', '2026-11-22')] }),
    });
    renderApp('/changelog');
    expect(await screen.findByRole('heading', { name: '1.1.0' })).toBeInTheDocument();
    expect(screen.getByText('Release 1.1.0')).toBeInTheDocument();
    expect(screen.getByText('Notes of 1.1.0')).toBeInTheDocument();
    expect(screen.getByText('22 ноября 2026 г.')).toHaveAttribute('dateTime', '2026-11-22');
    expect(screen.queryByRole('heading', { name: '1.0.0' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByRole('heading', { name: '1.0.0' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Показать ещё' })).not.toBeInTheDocument(),
    );
    const pages = fetch.mock.calls.map(([url]) => new URL(String(url), 'http://localhost'));
    expect(pages.filter((url) => url.pathname === '/api/versions').map((url) => url.search)).toEqual([
      '?p=1&page_size=20',
      '?p=2&page_size=20',
    ]);
  });

  it('says the changelog is empty when admin has no release yet', async () => {
    answerApi({ '/api/versions': ok({ page: 1, page_size: 20, total: 0, items: [] }) });
    renderApp('/changelog');
    expect(await screen.findByText('Записей пока нет.')).toBeInTheDocument();
  });

  it("refuses an answer that is not admin's version shape instead of guessing", async () => {
    answerApi({ '/api/versions': ok([{ version: '1.0.0', description: 'old shape' }]) });
    renderApp('/changelog');
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось загрузить данные');
    expect(screen.queryByText('old shape')).not.toBeInTheDocument();
  });
});
