import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, ok } from '../../../../test/render-app';
import { createAppQueryClient } from '../../../api/query-client';
import { i18next } from '../../../i18n/i18n';
import '../../../i18n/namespaces/admin';
import { IncidentsEditor } from './incidents-editor';

const HOUR = 3600;
const START = 1_767_000_000;

/** A `datetime-local` value in the test's time zone, as the browser's field gives it. */
const localInput = (epochSeconds: number) => {
  const at = new Date(epochSeconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

const resolvedIncident = {
  id: 3,
  title: 'Ошибки Claude',
  description: '',
  status: 'resolved',
  severity: 'major',
  components: ['api'],
  updates: [
    { status: 'investigating', text: '', created_at: START },
    { status: 'resolved', text: '', created_at: START + HOUR },
  ],
  started_at: START,
  resolved_at: START + HOUR,
  created_time: START,
  updated_time: START + HOUR,
};

const sent = (fetch: jest.Mock, path: string, method: string) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === path && init?.method === method)
    .map(([, init]) => JSON.parse(String(init.body)) as Record<string, unknown>);

function renderEditor(items: unknown[] = []) {
  const fetch = answerApi({
    '/api/incident/': ok({ page: 1, page_size: 50, total: items.length, items }),
    '/api/incident/3': ok(resolvedIncident),
  });
  void i18next.changeLanguage('ru');
  render(
    <QueryClientProvider client={createAppQueryClient()}>
      <IncidentsEditor />
    </QueryClientProvider>,
  );
  return fetch;
}

describe('incidents editor', () => {
  it('opens an incident announced ahead: a start later than now, English texts beside the Russian ones', async () => {
    const fetch = renderEditor();
    await userEvent.click(await screen.findByRole('button', { name: 'Открыть инцидент' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Заголовок'), 'Плановые работы');
    await userEvent.type(
      within(dialog).getByLabelText('Заголовок по-английски (необязательно)'),
      'Planned maintenance',
    );
    const startsAt = Math.floor(Date.now() / 1000 / 60) * 60 + 24 * HOUR;
    const start = within(dialog).getByLabelText('Начало (ваше местное время)');
    await userEvent.clear(start);
    await userEvent.type(start, localInput(startsAt));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(sent(fetch, '/api/incident/', 'POST')).toHaveLength(1));
    expect(sent(fetch, '/api/incident/', 'POST')[0]).toMatchObject({
      title: 'Плановые работы',
      title_en: 'Planned maintenance',
      started_at: startsAt,
    });
  });

  it('leaves the start to admin (now) when the operator does not touch it', async () => {
    const fetch = renderEditor();
    await userEvent.click(await screen.findByRole('button', { name: 'Открыть инцидент' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Заголовок'), 'Ошибки GPT');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent(fetch, '/api/incident/', 'POST')).toHaveLength(1));
    expect(sent(fetch, '/api/incident/', 'POST')[0]).not.toHaveProperty('started_at');
  });

  it("corrects a resolved incident's resolution time, and refuses one before its start", async () => {
    const fetch = renderEditor([resolvedIncident]);
    const row = await screen.findByTestId('admin-incident-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Обновить' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Начало (ваше местное время)')).toHaveValue(localInput(START));
    const resolved = within(dialog).getByLabelText('Устранён (ваше местное время)');
    expect(resolved).toHaveValue(localInput(START + HOUR));

    await userEvent.clear(resolved);
    await userEvent.type(resolved, localInput(START - HOUR));
    expect(within(dialog).getByText('Сбой не может быть устранён раньше, чем начался')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Сохранить' })).toBeDisabled();

    await userEvent.clear(resolved);
    await userEvent.type(resolved, localInput(START + 2 * HOUR));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent(fetch, '/api/incident/3', 'PUT')).toHaveLength(1));
    expect(sent(fetch, '/api/incident/3', 'PUT')[0]).toEqual({ resolved_at: START + 2 * HOUR });
  });
});
