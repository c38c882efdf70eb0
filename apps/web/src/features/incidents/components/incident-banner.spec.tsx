import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, ok, renderApp } from '../../../../test/render-app';
import { i18next } from '../../../i18n/i18n';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
// The route's chunk (with the Markdown renderer) is compiled when this file loads, not inside a
// find* timeout: a fresh CI machine has no transform cache.
import '../../../ui/markdown';

const incident = (id: number, title: string, status: string, resolvedAt = 0) => ({
  id,
  title,
  description: 'Часть запросов к Claude завершается ошибкой **502**.',
  status,
  severity: 'major',
  components: ['api', 'chat'],
  updates: [{ status, text: '', created_at: 1_767_000_000 }],
  started_at: 1_767_000_000,
  resolved_at: resolvedAt,
  created_time: 1_767_000_000,
  updated_time: 1_767_000_100,
});

const incidents = ok({
  page: 1,
  page_size: 20,
  total: 2,
  items: [incident(2, 'Ошибки Claude', 'identified'), incident(1, 'Задержки GPT', 'resolved', 1_766_000_000)],
});

describe('incident banner', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('shows each open incident on the public site, not the resolved ones', async () => {
    answerApi({ '/api/incident/': incidents });
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    expect(within(banner).getByText('Серьёзный сбой: Ошибки Claude')).toBeInTheDocument();
    expect(within(banner).getByText(/Причина найдена, исправляем/)).toBeInTheDocument();
    expect((await within(banner).findByText('502')).tagName).toBe('STRONG');
    expect(within(banner).getByText(/Часть запросов к Claude завершается ошибкой/)).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Страница состояния' })).toHaveAttribute(
      'href',
      '/status',
    );
    expect(within(banner).queryByText(/Задержки GPT/)).not.toBeInTheDocument();
  });

  it("shows an open incident's latest update with its time, not the description it was opened with", async () => {
    const updated = {
      ...incident(2, 'Ошибки Claude', 'monitoring'),
      updates: [
        { status: 'investigating', text: 'Выясняем, почему Claude отвечает 502.', created_at: 1_767_000_000 },
        { status: 'monitoring', text: 'Исправление выпущено, **наблюдаем**.', created_at: 1_767_003_600 },
        { status: 'monitoring', text: '', created_at: 1_767_003_700 },
      ],
    };
    answerApi({ '/api/incident/': ok({ page: 1, page_size: 20, total: 1, items: [updated] }) });
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    expect((await within(banner).findByText('наблюдаем')).tagName).toBe('STRONG');
    expect(within(banner).getByText(/Исправление выпущено/)).toBeInTheDocument();
    expect(within(banner).getByText(/обновлено/)).toHaveTextContent(
      `обновлено ${new Intl.DateTimeFormat('ru-RU', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(1_767_003_600_000))}`,
    );
    expect(within(banner).queryByText(/Часть запросов к Claude/)).not.toBeInTheDocument();
    expect(within(banner).queryByText(/Выясняем, почему/)).not.toBeInTheDocument();
  });

  it('says when an incident announced ahead starts, not a status it does not have yet', async () => {
    const startsAt = Math.floor(Date.now() / 1000) + 3 * 3600;
    const planned = { ...incident(3, 'Работы на серверах', 'investigating'), started_at: startsAt };
    answerApi({ '/api/incident/': ok({ page: 1, page_size: 20, total: 1, items: [planned] }) });
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    const when = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(startsAt * 1000),
    );
    expect(within(banner).getByText(new RegExp(`запланировано на ${when}`))).toBeInTheDocument();
    expect(within(banner).queryByText(/Выясняем причину/)).not.toBeInTheDocument();
    expect(within(banner).queryByText(/^с /)).not.toBeInTheDocument();
  });

  it('shows on the phone dashboard and stays hidden once dismissed', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '5');
    answerApi({ '/api/incident/': incidents });
    const first = renderApp('/dashboard', 'mobile');
    const banner = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Скрыть уведомление «Ошибки Claude»' }));
    await waitFor(() => expect(screen.queryByText(/Ошибки Claude/)).not.toBeInTheDocument());
    first.unmount();

    renderApp('/dashboard', 'mobile');
    expect(await screen.findByRole('navigation', { name: 'Нижняя навигация' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Сбои в работе сервиса' })).not.toBeInTheDocument();
  });

  it('shows a dismissed incident again with the update the operators post after the dismissal', async () => {
    const open = incident(2, 'Ошибки Claude', 'identified');
    answerApi({ '/api/incident/': ok({ page: 1, page_size: 20, total: 1, items: [open] }) });
    const first = renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Скрыть уведомление «Ошибки Claude»' }));
    await waitFor(() => expect(screen.queryByText(/Ошибки Claude/)).not.toBeInTheDocument());
    first.unmount();

    const monitored = {
      ...open,
      status: 'monitoring',
      updates: [
        ...open.updates,
        { status: 'monitoring', text: 'Исправление выпущено.', created_at: 1_767_000_200 },
      ],
      updated_time: 1_767_000_200,
    };
    answerApi({ '/api/incident/': ok({ page: 1, page_size: 20, total: 1, items: [monitored] }) });
    renderApp('/');
    const again = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    expect(await within(again).findByText('Исправление выпущено.')).toBeInTheDocument();
    expect(within(again).getByText(/Исправлено, наблюдаем/)).toBeInTheDocument();
  });

  it("shows an English reader the operators' English texts where they wrote them, the default text elsewhere", async () => {
    const translated = {
      ...incident(2, 'Ошибки Claude', 'identified'),
      title_en: 'Claude errors',
      updates: [
        {
          status: 'investigating',
          text: 'Разбираемся.',
          text_en: 'Looking into it.',
          created_at: 1_767_000_000,
        },
        { status: 'identified', text: 'Провайдер **ограничил** нас.', created_at: 1_767_003_600 },
      ],
    };
    const fetch = answerApi({
      '/api/incident/': ok({ page: 1, page_size: 20, total: 1, items: [translated] }),
      '/api/notice': (_init, url) =>
        ok(url.searchParams.get('lang') === 'en' ? 'Maintenance on **Sunday**' : 'Работы в **воскресенье**'),
    });
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Сбои в работе сервиса' });
    expect(within(banner).getByText('Серьёзный сбой: Ошибки Claude')).toBeInTheDocument();
    expect(await screen.findByText('воскресенье')).toBeInTheDocument();

    await act(() => i18next.changeLanguage('en'));
    const english = await screen.findByRole('region', { name: 'Service incidents' });
    expect(within(english).getByText('Major incident: Claude errors')).toBeInTheDocument();
    // The newest update has no English text: its default one, not an older English one.
    expect((await within(english).findByText('ограничил')).tagName).toBe('STRONG');
    expect(within(english).queryByText('Looking into it.')).not.toBeInTheDocument();
    expect(await screen.findByText('Sunday')).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/notice'))).toEqual([
      expect.not.stringContaining('lang='),
      expect.stringContaining('lang=en'),
    ]);
    await act(() => i18next.changeLanguage('ru'));
  });

  it('shows nothing when the incident list cannot be read', async () => {
    const fetch = answerApi({ '/api/incident/': { status: 503, body: { success: false, message: 'down' } } });
    renderApp('/about');
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/incident/'))).toBe(true),
    );
    expect(screen.queryByRole('region', { name: 'Сбои в работе сервиса' })).not.toBeInTheDocument();
  });
});
