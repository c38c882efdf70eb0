import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, ok, renderApp } from '../../../../test/render-app';
import { i18next } from '../../../i18n/i18n';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
// The route's chunk (with the Markdown renderer) is compiled when this file loads, not inside a
// find* timeout: a fresh CI machine has no transform cache.
import '../../../ui/markdown';

const NOW = 1_795_597_200; // 2026-11-25 12:00 Moscow
const DAY = 86_400;

const days = (state: (index: number) => 'operational' | 'degraded' | 'outage') =>
  Array.from({ length: 90 }, (_, index) => ({
    date: new Date((NOW - (89 - index) * DAY) * 1000).toISOString().slice(0, 10),
    uptime_percent: state(index) === 'outage' ? 75 : 100,
    worst_state: state(index),
  }));

const incident = (overrides: Record<string, unknown>) => ({
  id: 1,
  title: 'incident',
  description: '',
  status: 'investigating',
  severity: 'minor',
  components: [],
  updates: [],
  started_at: NOW - 3600,
  resolved_at: 0,
  created_time: NOW - 3600,
  updated_time: NOW - 3600,
  ...overrides,
});

const statusPage = {
  generated_at: NOW,
  overall: 'outage',
  window_days: 90,
  components: [
    {
      component: 'api',
      state: 'outage',
      uptime_percent: 99.957,
      days: days((i) => (i === 89 ? 'outage' : 'operational')),
    },
    {
      component: 'chat',
      state: 'degraded',
      uptime_percent: 100,
      days: days((i) => (i === 89 ? 'degraded' : 'operational')),
    },
    {
      component: 'payments',
      state: 'operational',
      uptime_percent: 99.722,
      days: days((i) => (i === 79 ? 'outage' : 'operational')),
    },
    { component: 'web', state: 'operational', uptime_percent: 100, days: days(() => 'operational') },
  ],
  open_incidents: [
    incident({
      id: 7,
      title: 'Ошибки Claude',
      severity: 'critical',
      status: 'identified',
      components: ['api', 'chat'],
      description: 'Запросы к Claude отвечают **502**.',
      updates: [
        { status: 'investigating', text: 'Разбираемся.', created_at: NOW - 3600 },
        { status: 'identified', text: 'Провайдер _ограничил_ нас.', created_at: NOW - 600 },
      ],
    }),
  ],
  past_incidents: [
    incident({
      id: 3,
      title: 'Платежи картой не проходили',
      severity: 'major',
      status: 'resolved',
      components: ['payments'],
      started_at: NOW - 10 * DAY,
      resolved_at: NOW - 10 * DAY + 6 * 3600,
      updates: [
        { status: 'investigating', text: '', created_at: NOW - 10 * DAY },
        { status: 'resolved', text: 'Банк **восстановил** шлюз.', created_at: NOW - 10 * DAY + 6 * 3600 },
      ],
    }),
  ],
};

describe('status page', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it("shows each component's state, its uptime over 90 days and a bar per day", async () => {
    answerApi({ '/api/status/page': ok(statusPage) });
    renderApp('/status');
    expect(await screen.findByRole('heading', { level: 1, name: 'Состояние сервиса' })).toBeInTheDocument();
    expect(await screen.findByText('Часть систем не работает')).toBeInTheDocument();

    const api = screen.getByRole('list', { name: 'API: доступность по дням' });
    const bars = within(api).getAllByRole('listitem');
    expect(bars).toHaveLength(90);
    expect(bars.at(-1)).toHaveAttribute('aria-label', '25 ноября 2026 г.: 75%, Не работает');
    expect(bars.at(-1)).toHaveClass('bg-red-500');
    expect(bars[0]).toHaveClass('bg-emerald-500');
    const chatBars = within(screen.getByRole('list', { name: 'Чат: доступность по дням' })).getAllByRole(
      'listitem',
    );
    expect(chatBars.at(-1)).toHaveClass('bg-amber-400');

    expect(screen.getByText('Доступность 99,957% за 90 дней')).toBeInTheDocument();
    expect(screen.getByText('Доступность 99,722% за 90 дней')).toBeInTheDocument();
    const payments = screen.getByRole('heading', { level: 3, name: 'Платежи' }).parentElement!;
    expect(within(payments).getByText('Работает')).toBeInTheDocument();
    const chat = screen.getByRole('heading', { level: 3, name: 'Чат' }).parentElement!;
    expect(within(chat).getByText('С перебоями')).toBeInTheDocument();
  });

  it('shows open incidents with their updates newest first and past ones with their timeline folded, as Markdown', async () => {
    answerApi({ '/api/status/page': ok(statusPage) });
    renderApp('/status');
    const open = await screen.findByRole('article', { name: 'Ошибки Claude' });
    expect(within(open).getByText('Критический сбой · Причина найдена, исправляем')).toBeInTheDocument();
    expect(within(open).getByText(/Затронуто: API, Чат/)).toBeInTheDocument();
    expect(within(open).getByText('502').tagName).toBe('STRONG');
    const timeline = within(open).getByRole('list', { name: 'Ход событий «Ошибки Claude»' });
    const updates = within(timeline).getAllByRole('listitem');
    expect(updates.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Причина найдена, исправляем.*Провайдер ограничил нас\.$/),
      expect.stringMatching(/^Выясняем причину.*Разбираемся\.$/),
    ]);
    expect(within(updates[0]!).getByText('ограничил').tagName).toBe('EM');

    const past = screen.getByRole('article', { name: 'Платежи картой не проходили' });
    expect(within(past).getByText(/Устранён .*, через 6 ч 0 мин/)).toBeInTheDocument();
    expect(within(past).getByText('восстановил')).not.toBeVisible();
    await userEvent.click(within(past).getByText('Ход событий (2)'));
    expect(within(past).getByText('восстановил')).toBeVisible();
    expect(within(past).getByText('восстановил').tagName).toBe('STRONG');
  });

  it('reads an incident in English for an English reader where the operators wrote it so, and says when planned work starts', async () => {
    const planned = incident({
      id: 9,
      title: 'Плановые работы',
      title_en: 'Planned maintenance',
      description: 'Обновляем базу.',
      started_at: NOW + 2 * 3600,
      updates: [{ status: 'investigating', text: 'Объявляем заранее.', created_at: NOW + 2 * 3600 }],
    });
    const translated = incident({
      id: 7,
      title: 'Ошибки Claude',
      title_en: 'Claude errors',
      description: 'Запросы к Claude отвечают **502**.',
      description_en: 'Calls to Claude answer **502**.',
      updates: [
        {
          status: 'investigating',
          text: 'Разбираемся.',
          text_en: 'Looking into it.',
          created_at: NOW - 3600,
        },
        { status: 'identified', text: 'Провайдер ограничил нас.', created_at: NOW - 600 },
      ],
    });
    answerApi({ '/api/status/page': ok({ ...statusPage, open_incidents: [planned, translated] }) });
    renderApp('/status');
    const plannedCard = await screen.findByRole('article', { name: 'Плановые работы' });
    expect(within(plannedCard).getByText(/запланировано на/)).toBeInTheDocument();
    expect(within(plannedCard).queryByText(/Начало:/)).not.toBeInTheDocument();

    await act(() => i18next.changeLanguage('en'));
    const english = await screen.findByRole('article', { name: 'Claude errors' });
    expect(within(english).getByText(/Calls to Claude answer/)).toBeInTheDocument();
    const updates = within(english).getAllByRole('listitem');
    expect(updates.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/Провайдер ограничил нас\.$/),
      expect.stringMatching(/Looking into it\.$/),
    ]);
    const plannedInEnglish = screen.getByRole('article', { name: 'Planned maintenance' });
    expect(within(plannedInEnglish).getByText(/scheduled for/)).toBeInTheDocument();
    // No English description written: the default one.
    expect(within(plannedInEnglish).getByText('Обновляем базу.')).toBeInTheDocument();
    await act(() => i18next.changeLanguage('ru'));
  });

  it('says all is well when nothing is wrong, on the phone route set too', async () => {
    answerApi({
      '/api/status/page': ok({
        ...statusPage,
        overall: 'operational',
        components: statusPage.components.map((c) => ({ ...c, state: 'operational', uptime_percent: 100 })),
        open_incidents: [],
        past_incidents: [],
      }),
    });
    renderApp('/status', 'mobile');
    expect(await screen.findByText('Все системы работают')).toBeInTheDocument();
    expect(screen.getByText('Текущих сбоев нет.')).toBeInTheDocument();
    expect(screen.getByText('За последние 90 дней сбоев не было.')).toBeInTheDocument();
  });

  it('is linked from the site footer', async () => {
    answerApi({ '/api/status/page': ok(statusPage) });
    renderApp('/');
    const footer = await screen.findByRole('contentinfo');
    await userEvent.click(within(footer).getByRole('link', { name: 'Состояние сервиса' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Состояние сервиса' })).toBeInTheDocument();
  });

  it('says the status cannot be read instead of claiming all is well', async () => {
    answerApi({ '/api/status/page': { status: 503, body: { success: false, message: 'admin is down' } } });
    renderApp('/status');
    expect(await screen.findByRole('alert')).toHaveTextContent('admin is down');
    expect(screen.queryByText('Все системы работают')).not.toBeInTheDocument();
  });

  it("refuses an answer that is not the status page's shape", async () => {
    answerApi({ '/api/status/page': ok({ overall: 'fine' }) });
    renderApp('/status');
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось загрузить данные');
    await waitFor(() => expect(screen.queryByText('Все системы работают')).not.toBeInTheDocument());
  });
});
