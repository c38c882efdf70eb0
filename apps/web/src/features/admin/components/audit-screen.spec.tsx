import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aSignedInAccount, answerApi, ok, renderApp } from '../../../../test/render-app';
// The route's chunk is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

const entry = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  service: 'admin',
  actor_id: 1,
  actor_role: 100,
  action: 'channel.update',
  target_kind: 'channel',
  target_id: '4',
  changed: ['key', 'priority'],
  before: { name: 'OpenAI main', priority: 0, key: '[redacted]' },
  after: { name: 'OpenAI main', priority: 7, key: '[redacted]' },
  request_id: 'req-42',
  created_at: 1_767_000_000,
  target_name: 'OpenAI main',
  ...overrides,
});

describe('admin audit trail screen', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '1');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it("lists operators' actions, filters them and shows a change's values before and after", async () => {
    const fetch = answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/audit': ok({
        page: 1,
        page_size: 20,
        total: 2,
        items: [
          entry(2),
          entry(1, {
            service: 'billing',
            action: 'balance.set',
            target_kind: 'user',
            target_id: '9',
            changed: ['quota', 'reason'],
            before: { quota: 0 },
            after: { quota: 500_000, reason: 'goodwill' },
            actor_role: 10,
            target_name: null,
          }),
        ],
      }),
    });
    renderApp('/dashboard/admin/audit');

    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('channel.update');
    expect(rows[0]).toHaveTextContent('Канал «OpenAI main» (#4)');
    expect(rows[1]).toHaveTextContent('Пользователь 9');
    expect(rows[0]).toHaveTextContent('#1 · Root');
    expect(rows[0]).toHaveTextContent('key, priority');
    expect(rows[1]).toHaveTextContent('#1 · Администратор');

    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Подробнее' }));
    const details = screen.getByRole('table', { name: 'Подробнее' });
    const priority = within(details).getByText('priority').closest('tr')!;
    expect(priority).toHaveTextContent('07');
    expect(within(details).getByText('key').closest('tr')).toHaveTextContent('[redacted][redacted]');
    expect(screen.getByText('Сервис admin, запрос req-42')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Объект'), 'user');
    await userEvent.type(screen.getByLabelText('ID администратора'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() =>
      expect(
        fetch.mock.calls.some(([url]) => {
          const query = new URL(String(url), 'http://localhost').searchParams;
          return (
            query.get('target_kind') === 'user' && query.get('actor_id') === '1' && query.get('p') === '1'
          );
        }),
      ).toBe(true),
    );
  });

  it("names the user of billing's balance change by username, and a deleted user by id", async () => {
    const balanceSet = (id: number, userId: string) =>
      entry(id, {
        service: 'billing',
        action: 'balance.set',
        target_kind: 'user',
        target_id: userId,
        changed: ['quota', 'reason'],
        before: { quota: 0 },
        after: { quota: 500_000, reason: 'goodwill' },
        target_name: null,
      });
    answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/audit': ok({
        page: 1,
        page_size: 20,
        total: 2,
        items: [balanceSet(5, '4'), balanceSet(6, '12')],
      }),
      '/api/user/4': ok({
        id: 4,
        username: 'boris',
        display_name: '',
        role: 1,
        status: 1,
        group: 'default',
        email: 'boris@example.ru',
        quota: 500_000,
        used_quota: 0,
        request_count: 0,
        aff_code: null,
        inviter_id: null,
        github_id: '',
        google_id: '',
        discord_id: '',
        created_time: 1,
      }),
    });
    renderApp('/dashboard/admin/audit');

    const rows = await screen.findAllByTestId('audit-row');
    await waitFor(() => expect(rows[0]).toHaveTextContent('Пользователь «boris» (#4)'));
    expect(rows[1]).toHaveTextContent('Пользователь 12');
  });

  it('names a changelog version as operators know it, a deleted one too', async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/audit': ok({
        page: 1,
        page_size: 20,
        total: 1,
        items: [
          entry(3, {
            action: 'version.delete',
            target_kind: 'version',
            target_id: '17',
            target_name: '1.4.0 — Быстрый чат',
            changed: ['content', 'release_date', 'title', 'version'],
            before: { version: '1.4.0', title: 'Быстрый чат', content: '', release_date: '2026-11-25' },
            after: null,
          }),
        ],
      }),
    });
    renderApp('/dashboard/admin/audit');

    const [row] = await screen.findAllByTestId('audit-row');
    expect(row).toHaveTextContent('Версия «1.4.0 — Быстрый чат» (#17)');
  });

  it('is not offered to a normal user', async () => {
    answerApi({ '/api/user/self': ok(aSignedInAccount({ role: 1 })) });
    renderApp('/dashboard/admin/audit');
    expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeInTheDocument();
    expect(screen.queryByTestId('audit-row')).toBeNull();
  });
});
