import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  aChannelView,
  answerApi,
  aSignedInAccount,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
// The route's chunk (with the Markdown renderer) is compiled when this file loads, not inside a
// find* timeout: a fresh CI machine has no transform cache.
import '../../../pages/dashboard/admin/admin-pages';

const aUser = (id: number, username: string, overrides: Record<string, unknown> = {}) => ({
  id,
  username,
  display_name: '',
  role: 1,
  status: 1,
  group: 'default',
  email: `${username}@example.ru`,
  quota: 500_000,
  used_quota: 0,
  request_count: 3,
  aff_code: null,
  inviter_id: null,
  github_id: '',
  google_id: '',
  discord_id: '',
  created_time: 1,
  ...overrides,
});

const channel = aChannelView(4, 'OpenAI main', { models: 'gpt-4o,gpt-4o-mini' });

const promo = {
  id: 1,
  code: 'WELCOME',
  type: 'percent',
  value: '10',
  max_uses: 100,
  per_user_limit: 1,
  min_amount: '0',
  starts_at: null,
  expires_at: null,
  active: true,
  used_count: 7,
  created_at: 1,
  updated_at: 1,
};

const sentTo = (fetch: jest.Mock, path: string, method: string) =>
  fetch.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && init?.method === method);

function adminApi(role: number, overrides: Parameters<typeof answerApi>[0] = {}) {
  return answerApi({
    '/api/user/self': ok(aSignedInAccount({ role })),
    '/api/user/': ok({
      page: 1,
      page_size: 10,
      total: 2,
      items: [aUser(5, 'anna', { role }), aUser(9, 'boris')],
    }),
    '/api/user/manage': ok(aUser(9, 'boris', { status: 2 })),
    '/api/channel/': (init) =>
      init?.method === 'POST'
        ? ok(channel)
        : ok({ page: 1, page_size: 20, total: 1, items: [channel], type_counts: { 1: 1 } }),
    '/api/channel/fetch_models/4': ok(['gpt-4o', 'gpt-4o-mini', 'o3-mini']),
    '/api/channel/search': ok({ page: 1, page_size: 20, total: 1, items: [channel], type_counts: { 1: 1 } }),
    '/api/channel/test/4': {
      status: 200,
      body: { success: true, message: '', time: 0.12, data: { model: 'gpt-4o-mini', time_ms: 120 } },
    },
    '/api/pricing': {
      status: 200,
      body: {
        success: true,
        message: '',
        data: [
          {
            model: 'gpt-4o-mini',
            context_window: 128000,
            provider: 'openai',
            input_price: 0.15,
            output_price: 0.6,
            cached_input_price: 0.075,
            intelligence: 3,
            speed: 5,
            sota: false,
            deprecated: false,
          },
        ],
        group_ratio: { default: 1, vip: 0.9 },
      },
    },
    '/api/pricing/models/gpt-4o-mini': ok({}),
    '/api/pricing/groups/vip': ok({ group: 'vip', ratio: 0.8 }),
    '/api/promo': (init) =>
      init?.method === 'POST'
        ? ok({ ...promo, id: 2, code: JSON.parse(String(init.body)).code })
        : ok({ page: 1, page_size: 20, total: 1, items: [promo] }),
    '/api/promo/1': ok({ ...promo, active: false }),
    '/api/log/': ok({
      page: 1,
      page_size: 20,
      total: 1,
      items: [
        {
          id: 'usage-1',
          created_at: 1_767_000_000,
          type: 2,
          user_id: 9,
          username: 'boris',
          token_id: null,
          token_name: 'chat #3',
          model_name: 'gpt-4o-mini',
          quota: 5000,
          prompt_tokens: 12,
          completion_tokens: 40,
          cached_tokens: 0,
          cache_write_5m_tokens: 0,
          cache_write_1h_tokens: 2048,
          use_time: 1,
          is_stream: true,
          group: 'default',
          request_id: 'r1',
          content: '',
          channel: 4,
        },
      ],
    }),
    '/api/log/export': { status: 429, body: { success: false, message: 'slow down' } },
    '/api/statistics/': (_init, url) => {
      const end = url.searchParams.get('end_date')!;
      return ok([
        {
          date: end,
          start_timestamp: 0,
          end_timestamp: 0,
          model_name: 'gpt-4o-mini',
          requests: 3,
          prompt_tokens: 100,
          completion_tokens: 50,
          quota: 500_000,
        },
        {
          date: url.searchParams.get('start_date')!,
          start_timestamp: 0,
          end_timestamp: 0,
          model_name: 'claude-haiku',
          requests: 2,
          prompt_tokens: 10,
          completion_tokens: 5,
          quota: 1_000_000,
        },
      ]);
    },
    '/api/statistics/overview': ok({
      windows: [
        { days: 1, active_users: 2, requests: 10, errors: 0 },
        { days: 7, active_users: 4, requests: 40, errors: 1 },
        { days: 30, active_users: 9, requests: 90, errors: 1 },
      ],
      top_users: [
        { user_id: 9, username: 'boris', quota: 1_000_000, requests: 30 },
        { user_id: 7, username: null, quota: 500_000, requests: 5 },
      ],
      consumer_lag: 12,
    }),
    '/api/incident/': ok({
      page: 1,
      page_size: 50,
      total: 1,
      items: [
        {
          id: 3,
          title: 'Claude errors',
          description: '',
          status: 'identified',
          severity: 'major',
          components: ['api', 'chat'],
          updates: [{ status: 'investigating', text: 'Looking', created_at: 1_767_000_000 }],
          started_at: 1_767_000_000,
          resolved_at: 0,
          created_time: 1_767_000_000,
          updated_time: 1_767_000_000,
        },
      ],
    }),
    '/api/incident/3': ok(null),
    '/api/versions': (init) =>
      init?.method === 'POST' ? ok(null) : ok({ page: 1, page_size: 20, total: 0, items: [] }),
    '/api/option/': (init) =>
      init?.method === 'PUT' ? ok({ key: 'Notice', value: 'x' }) : ok([{ key: 'Notice', value: '' }]),
    ...overrides,
  });
}

describe('the admin area', () => {
  beforeEach(() => {
    startSignedIn();
    localStorage.setItem(STORAGE_KEYS.defaultCurrency, 'USD');
  });

  it('is not there for a normal user: no sidebar entry, the not-found page at its address', async () => {
    const fetch = adminApi(1);
    renderApp('/dashboard/admin/users');
    expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Разделы панели' });
    expect(within(sidebar).queryByRole('link', { name: 'Админ-панель' })).not.toBeInTheDocument();
    expect(sentTo(fetch, '/api/user/', 'GET')).toHaveLength(0);
  });

  it('lets an admin list users and disable one once they confirm, without the root-only settings', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/users');
    const rows = await screen.findAllByTestId('admin-user-row');
    expect(rows).toHaveLength(2);
    expect(screen.getByRole('navigation', { name: 'Разделы панели' })).toHaveTextContent('Админ-панель');
    expect(
      within(screen.getByRole('navigation', { name: 'Разделы админ-панели' })).queryByText('Настройки'),
    ).toBeNull();
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Отключить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отключить пользователя?' });
    expect(dialog).toHaveTextContent('Пользователь boris не сможет войти');
    expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(0);

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Отключить' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Отключить пользователя?' })).getByRole('button', {
        name: 'Отключить',
      }),
    );
    await waitFor(() => expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/user/manage', 'POST')[0]![1]!.body))).toEqual({
      id: 9,
      action: 'disable',
    });
    // Promoting to admin is root's alone.
    expect(within(rows[1]!).queryByRole('button', { name: 'Сделать админом' })).toBeNull();
  });

  it('lets root make a user admin only once they confirm, and enables a disabled user at once', async () => {
    const fetch = adminApi(100, {
      '/api/user/': ok({
        page: 1,
        page_size: 10,
        total: 2,
        items: [aUser(9, 'boris'), aUser(11, 'gleb', { status: 2 })],
      }),
    });
    renderApp('/dashboard/admin/users');
    const rows = await screen.findAllByTestId('admin-user-row');
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Сделать админом' }));
    const dialog = await screen.findByRole('dialog', { name: 'Сделать админом?' });
    expect(dialog).toHaveTextContent('Пользователь boris получит доступ к админ-панели');
    expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сделать админом' }));
    await waitFor(() => expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/user/manage', 'POST')[0]![1]!.body))).toEqual({
      id: 9,
      action: 'promote',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Включить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(2));
    expect(JSON.parse(String(sentTo(fetch, '/api/user/manage', 'POST')[1]![1]!.body))).toEqual({
      id: 11,
      action: 'enable',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('disables a channel only once the admin confirms', async () => {
    const fetch = adminApi(10, { '/api/channel': ok({ ...channel, status: 2 }) });
    renderApp('/dashboard/admin/channels');
    const row = await screen.findByTestId('admin-channel-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Отключить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отключить канал?' });
    expect(dialog).toHaveTextContent('Канал «OpenAI main» перестанет обслуживать запросы');
    expect(sentTo(fetch, '/api/channel', 'PUT')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отключить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/channel', 'PUT')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/channel', 'PUT')[0]![1]!.body))).toEqual({
      id: 4,
      status: 2,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers an admin no change to root or a fellow admin, which auth would refuse', async () => {
    adminApi(10, {
      '/api/user/': ok({
        page: 1,
        page_size: 10,
        total: 3,
        items: [aUser(1, 'root', { role: 100 }), aUser(6, 'vera', { role: 10 }), aUser(9, 'boris')],
      }),
    });
    renderApp('/dashboard/admin/users');
    const rows = await screen.findAllByTestId('admin-user-row');
    for (const row of rows.slice(0, 2)) {
      expect(within(row).queryByRole('button', { name: 'Изменить' })).toBeNull();
      expect(within(row).queryByRole('button', { name: 'Отключить' })).toBeNull();
      expect(within(row).queryByRole('button', { name: /^Удалить/ })).toBeNull();
    }
    expect(within(rows[2]!).getByRole('button', { name: 'Изменить' })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Отключить' })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Удалить пользователя boris' })).toBeInTheDocument();
  });

  it('shows the named groups by their labels and warns of a group no ratio or channel knows', async () => {
    const fetch = adminApi(100, {
      '/api/user/': ok({
        page: 1,
        page_size: 10,
        total: 2,
        items: [aUser(7, 'olga', { group: 'svip' }), aUser(9, 'boris', { group: 'vip' })],
      }),
      '/api/user/manage': ok(null),
      '/api/user/:id': ok(null),
    });
    renderApp('/dashboard/admin/users');
    const rows = await screen.findAllByTestId('admin-user-row');
    expect(rows[0]).toHaveTextContent('Super VIP (svip)');
    expect(rows[1]).toHaveTextContent('VIP');
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    const group = within(dialog).getByLabelText(/^Группа/);
    await waitFor(() => expect(sentTo(fetch, '/api/pricing', 'GET')).toHaveLength(1));
    expect(
      [...document.querySelectorAll('#admin-user-groups option')].map((option) =>
        option.getAttribute('value'),
      ),
    ).toEqual(['default', 'default_prev', 'vip', 'svip', 'enterprise']);
    expect(within(dialog).queryByText(/Новая группа/)).toBeNull();
    await userEvent.clear(group);
    await userEvent.type(group, 'vpi');
    expect(
      await within(dialog).findByText(/Новая группа: у неё нет своего коэффициента цены/),
    ).toBeInTheDocument();
  });

  it('warns that a known group no enabled channel serves would cut the user off', async () => {
    const fetch = adminApi(100, {
      '/api/user/': ok({ page: 1, page_size: 10, total: 1, items: [aUser(9, 'boris', { group: 'vip' })] }),
    });
    renderApp('/dashboard/admin/users');
    const row = await screen.findByTestId('admin-user-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    // The only channel serves 'default'; vip has a price ratio, so it is not a new group.
    expect(
      await within(dialog).findByText(
        'Группу vip не обслуживает ни один включённый канал: запросы этого пользователя к API не пройдут, пока канал не укажет её',
      ),
    ).toBeInTheDocument();
    expect(
      sentTo(fetch, '/api/channel/', 'GET').some(([url]) => String(url).includes('status=enabled')),
    ).toBe(true);
    const group = within(dialog).getByLabelText(/^Группа/);
    await userEvent.clear(group);
    await userEvent.type(group, 'default');
    expect(within(dialog).queryByText(/не обслуживает ни один включённый канал/)).toBeNull();
  });

  it('says a deleted user is deleted, not updated', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/users');
    await screen.findAllByTestId('admin-user-row');
    await userEvent.click(screen.getByRole('button', { name: 'Удалить пользователя boris' }));
    const confirm = await screen.findByRole('dialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/user/manage', 'POST')).toHaveLength(1));
    expect(await screen.findByText('Пользователь удалён')).toBeInTheDocument();
  });

  it('tests a channel and creates one with its key, which is never shown back', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/channels');
    const row = await screen.findByTestId('admin-channel-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Проверить' }));
    expect(await screen.findByText('«OpenAI main» ответил за 120 мс (gpt-4o-mini)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Добавить канал' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Название'), 'Claude');
    await userEvent.type(within(dialog).getByLabelText('Ключ'), 'sk-ant-secret');
    await userEvent.type(within(dialog).getByLabelText('Модели'), 'claude-haiku');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/channel/', 'POST')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/channel/', 'POST')[0]![1]!.body))).toMatchObject({
      name: 'Claude',
      key: 'sk-ant-secret',
      models: 'claude-haiku',
      type: 1,
    });
  });

  it('copies a channel with every field but its key, tests the whole page and searches', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/channels');
    const row = await screen.findByTestId('admin-channel-row');

    await userEvent.click(within(row).getByRole('button', { name: 'Копия канала OpenAI main' }));
    const dialog = await screen.findByRole('dialog', { name: 'Копия канала OpenAI main' });
    expect(within(dialog).getByLabelText('Название')).toHaveValue('OpenAI main (копия)');
    expect(within(dialog).getByLabelText('Модели')).toHaveValue('gpt-4o,gpt-4o-mini');
    expect(within(dialog).getByLabelText('Ключ')).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Сохранить' })).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Ключ'), 'sk-second-key');
    await userEvent.type(within(dialog).getByLabelText('Тег'), 'backup');
    await userEvent.type(within(dialog).getByLabelText('Модель для проверки'), 'gpt-4o-mini');
    await userEvent.clear(within(dialog).getByLabelText(/Одновременных запросов/));
    await userEvent.type(within(dialog).getByLabelText(/Одновременных запросов/), '8');
    await userEvent.click(within(dialog).getByLabelText(/Отключать автоматически/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/channel/', 'POST')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/channel/', 'POST')[0]![1]!.body))).toMatchObject({
      name: 'OpenAI main (копия)',
      key: 'sk-second-key',
      base_url: 'https://upstream.example.test',
      models: 'gpt-4o,gpt-4o-mini',
      tag: 'backup',
      test_model: 'gpt-4o-mini',
      max_concurrency: 8,
      auto_ban: 0,
    });

    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const editing = await screen.findByRole('dialog', { name: 'Канал «OpenAI main»' });
    await userEvent.click(within(editing).getByRole('button', { name: 'Получить модели у провайдера' }));
    await waitFor(() =>
      expect(within(editing).getByLabelText('Модели')).toHaveValue('gpt-4o,gpt-4o-mini,o3-mini'),
    );
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'Проверить все' }));
    expect(await screen.findByText('Проверено: успешно 1, с ошибкой 0')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Название, ключ, адрес'), 'openai');
    await userEvent.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/channel/search?'))).toBe(true),
    );
  });

  it('lets root edit the notice in Markdown with a preview; an admin gets not-found there', async () => {
    const fetch = adminApi(100);
    renderApp('/dashboard/admin/settings');
    const text = await screen.findByRole('textbox', { name: 'Текст объявления' });
    await userEvent.type(text, '**Новые модели**');
    expect((await screen.findByText('Новые модели')).tagName).toBe('STRONG');
    await userEvent.click(screen.getAllByRole('button', { name: 'Сохранить' })[0]!);
    await waitFor(() => expect(sentTo(fetch, '/api/option/', 'PUT')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/option/', 'PUT')[0]![1]!.body))).toEqual({
      key: 'Notice',
      value: '**Новые модели**',
    });
  });

  it('edits a model price and a group ratio, previewing the price in dollars', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/prices');
    const row = await screen.findByTestId('admin-price-row');
    expect(row).toHaveTextContent(/0,15\s\$/);
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    const output = within(dialog).getByLabelText(/^Вывод, \$ за 1M токенов/);
    await userEvent.clear(output);
    await userEvent.type(output, '0.8');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/pricing/models/gpt-4o-mini', 'PUT')).toHaveLength(1));
    expect(
      JSON.parse(String(sentTo(fetch, '/api/pricing/models/gpt-4o-mini', 'PUT')[0]![1]!.body)),
    ).toMatchObject({
      provider: 'openai',
      input_price: '0.15',
      output_price: '0.8',
      context_window: 128000,
    });

    const ratio = screen.getByLabelText('Коэффициент группы vip');
    await userEvent.clear(ratio);
    await userEvent.type(ratio, '0.8');
    await userEvent.click(within(ratio.closest('li')!).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/pricing/groups/vip', 'PUT')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/pricing/groups/vip', 'PUT')[0]![1]!.body))).toEqual({
      ratio: '0.8',
    });
  });

  it('creates a batch of promo codes from a prefix and disables one once the admin confirms', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/promo');
    const row = await screen.findByTestId('admin-promo-row');
    expect(row).toHaveTextContent('7 / 100');
    await userEvent.type(screen.getByLabelText('Код (или префикс для пакета)'), 'SPRING');
    const count = screen.getByLabelText('Сколько создать');
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await userEvent.click(screen.getByRole('button', { name: 'Создать 3 промокодов' }));
    await waitFor(() => expect(sentTo(fetch, '/api/promo', 'POST')).toHaveLength(3));
    const codes = sentTo(fetch, '/api/promo', 'POST').map(
      ([, init]) => JSON.parse(String(init!.body)).code as string,
    );
    expect(new Set(codes).size).toBe(3);
    for (const code of codes) expect(code).toMatch(/^SPRING-[A-Z2-9]{6}$/);

    await userEvent.click(within(row).getByRole('button', { name: 'Отключить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отключить промокод?' });
    expect(dialog).toHaveTextContent('Промокод WELCOME перестанет приниматься');
    expect(sentTo(fetch, '/api/promo/1', 'PUT')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отключить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/promo/1', 'PUT')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/promo/1', 'PUT')[0]![1]!.body))).toEqual({ active: false });
  });

  it("filters every user's log by user and says so when an export comes too soon", async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/logs');
    const row = await screen.findByTestId('admin-log-row');
    expect(row).toHaveTextContent('boris');
    expect(row).toHaveTextContent('chat #3');
    expect(within(row).getByTestId('admin-log-cache-writes')).toHaveTextContent(
      'запись в кэш: 5 мин 0, 1 ч 2048',
    );
    await userEvent.type(screen.getByLabelText('Пользователь'), 'boris');
    await userEvent.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() =>
      expect(
        fetch.mock.calls.some(
          ([url]) => String(url).startsWith('/api/log/?') && String(url).includes('username=boris'),
        ),
      ).toBe(true),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Выгрузить CSV' }));
    expect(
      await screen.findByText('Слишком много попыток. Попробуйте снова через 10 секунд'),
    ).toBeInTheDocument();
  });

  it('exports what the form says even before Search is pressed, and shows the same rows', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/logs');
    await screen.findByTestId('admin-log-row');
    await userEvent.type(screen.getByLabelText('Пользователь'), 'boris');
    await userEvent.click(screen.getByRole('button', { name: 'Выгрузить CSV' }));
    await waitFor(() => expect(sentTo(fetch, '/api/log/export', 'GET')).toHaveLength(1));
    const [[exported]] = sentTo(fetch, '/api/log/export', 'GET') as [[string]];
    const query = new URL(exported, 'http://localhost').searchParams;
    expect(query.get('username')).toBe('boris');
    // Money and times in the file as the screen shows them: its currency (dollars here), the browser's zone.
    expect(query.get('currency')).toBe('USD');
    expect(query.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await waitFor(() =>
      expect(
        fetch.mock.calls.some(
          ([url]) => String(url).startsWith('/api/log/?') && String(url).includes('username=boris'),
        ),
      ).toBe(true),
    );
  });

  it("opens on the overview: today's, 7 and 30 days' charges, top models and channel health", async () => {
    adminApi(10);
    renderApp('/dashboard/admin');
    const today = await screen.findByTestId('overview-1');
    expect(today).toHaveTextContent(/1,00\s\$/);
    expect(today).toHaveTextContent('Запросов: 3');
    expect(screen.getByTestId('overview-30')).toHaveTextContent(/3,00\s\$/);
    expect(screen.getAllByTestId('overview-model').map((li) => li.textContent)).toEqual([
      expect.stringContaining('claude-haiku'),
      expect.stringContaining('gpt-4o-mini'),
    ]);
    expect(await screen.findByTestId('overview-channels')).toHaveTextContent('Включено 1 из 1');
    expect(await screen.findByTestId('overview-activity-7')).toHaveTextContent(
      /Активных пользователей: 4 · ошибок провайдеров: 2,5\s?%/,
    );
    expect(screen.getByTestId('overview-lag')).toHaveTextContent('Очередь биллинга: 12 событий');
    expect(screen.getAllByTestId('overview-user').map((li) => li.textContent)).toEqual([
      expect.stringContaining('boris'),
      expect.stringContaining('#7'),
    ]);
  });

  it('says which codes are used up or past their last day, not just active', async () => {
    const dayAgo = Math.floor(Date.now() / 1000) - 86_400;
    adminApi(10, {
      '/api/promo': ok({
        page: 1,
        page_size: 20,
        total: 3,
        items: [
          { ...promo, id: 1, code: 'ONCE', max_uses: 1, used_count: 1 },
          { ...promo, id: 2, code: 'SUMMER', expires_at: dayAgo },
          { ...promo, id: 3, code: 'WELCOME' },
        ],
      }),
    });
    renderApp('/dashboard/admin/promo');
    const rows = await screen.findAllByTestId('admin-promo-row');
    expect(rows[0]).toHaveTextContent('Исчерпан');
    expect(rows[1]).toHaveTextContent('Истёк');
    expect(rows[2]).toHaveTextContent('Активен');
  });

  it('counts the channels of every page on the overview, not the first page’s', async () => {
    const channelPage = (total: number, items: (typeof channel)[]) =>
      ok({ page: 1, page_size: 20, total, items, type_counts: { 1: total } });
    adminApi(10, {
      '/api/channel/': (_init, url) => {
        const status = url.searchParams.get('status');
        if (status === 'enabled') return channelPage(23, [channel]);
        if (status === 'disabled')
          return channelPage(2, [
            { ...channel, id: 30, status: 3 },
            { ...channel, id: 31, status: 2 },
          ]);
        return channelPage(25, [channel]);
      },
      '/api/statistics/': ok([]),
      '/api/statistics/overview': ok({ windows: [], top_users: [], consumer_lag: 0 }),
    });
    renderApp('/dashboard/admin');
    expect(await screen.findByTestId('overview-channels')).toHaveTextContent(
      'Включено 23 из 25, отключено системой: 1',
    );
    expect(screen.getAllByText('За 30 дней списаний не было')).toHaveLength(2);
  });

  it('posts an incident update to its timeline and adds a release to the changelog', async () => {
    const fetch = adminApi(10);
    renderApp('/dashboard/admin/content');
    const incident = await screen.findByTestId('admin-incident-row');
    expect(incident).toHaveTextContent('Looking');
    await userEvent.click(within(incident).getByRole('button', { name: 'Обновить' }));
    let dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Статус'), 'resolved');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Текст обновления (Markdown)' }),
      'Fixed',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/incident/3', 'PUT')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/incident/3', 'PUT')[0]![1]!.body))).toEqual({
      status: 'resolved',
      update: 'Fixed',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Добавить версию' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Версия'), '1.2.0');
    await userEvent.type(within(dialog).getByLabelText('Заголовок'), 'Chat');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Что нового (Markdown)' }),
      '**Chat** is here',
    );
    expect((await within(dialog).findByText('Chat', { selector: 'strong' })).tagName).toBe('STRONG');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/versions', 'POST')).toHaveLength(1));
    expect(JSON.parse(String(sentTo(fetch, '/api/versions', 'POST')[0]![1]!.body))).toMatchObject({
      version: '1.2.0',
      title: 'Chat',
      content: '**Chat** is here',
    });
  });

  it('says so when there are no incidents or versions yet', async () => {
    adminApi(10, { '/api/incident/': ok({ page: 1, page_size: 50, total: 0, items: [] }) });
    renderApp('/dashboard/admin/content');
    expect(await screen.findByText(/^Инцидентов нет/)).toBeInTheDocument();
    expect(await screen.findByText('В списке изменений пока нет версий')).toBeInTheDocument();
  });

  it('dates a release in the changelog editor as the site does, not as ISO', async () => {
    adminApi(10, {
      '/api/versions': ok({
        page: 1,
        page_size: 20,
        total: 1,
        items: [
          {
            id: 2,
            version: '1.2.0',
            title: 'Chat',
            content: '',
            release_date: '2026-11-29',
            created_time: 1,
            updated_time: 1,
          },
        ],
      }),
    });
    renderApp('/dashboard/admin/content');
    const row = await screen.findByTestId('admin-version-row');
    expect(row).toHaveTextContent('29 ноября 2026 г.');
    expect(row).not.toHaveTextContent('2026-11-29');
  });

  it.each([
    ['/dashboard/admin/channels', ['Каналы']],
    ['/dashboard/admin/prices', ['Цены моделей']],
    ['/dashboard/admin/content', ['Инциденты', 'Список изменений']],
  ])(
    'lets the buttons of %s wrap under the card title instead of past the card on a narrow window',
    async (path, titles) => {
      adminApi(10);
      renderApp(path);
      for (const title of titles) {
        const heading = await screen.findByRole('heading', { name: title, level: 2 });
        expect(heading.parentElement).toHaveClass('flex-wrap');
      }
    },
  );

  it('shows the status page anew after an incident update, not the reading from before it', async () => {
    let updated = false;
    const statusPage = () =>
      ok({
        generated_at: 1_767_000_000,
        overall: updated ? 'degraded' : 'operational',
        window_days: 90,
        components: [],
        open_incidents: [],
        past_incidents: [],
      });
    adminApi(10, {
      '/api/status/page': statusPage,
      '/api/incident/3': () => {
        updated = true;
        return ok(null);
      },
    });
    const { router } = renderApp('/status');
    expect(await screen.findByText('Все системы работают')).toBeInTheDocument();
    await act(() => router.navigate('/dashboard/admin/content'));
    const incident = await screen.findByTestId('admin-incident-row');
    await userEvent.click(within(incident).getByRole('button', { name: 'Обновить' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Статус'), 'monitoring');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(updated).toBe(true));
    await act(() => router.navigate('/status'));
    expect(await screen.findByText('Часть систем работает с перебоями')).toBeInTheDocument();
  });

  describe('an hour after Moscow midnight, in a browser west of Moscow', () => {
    const zone = process.env.TZ;
    beforeEach(() => {
      // 17:30 on the 28th in New York is 01:30 on the 29th in Moscow; only the clock is faked.
      process.env.TZ = 'America/New_York';
      jest.useFakeTimers({
        now: Date.parse('2026-11-28T22:30:00Z'),
        doNotFake: [
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
          'clearImmediate',
          'queueMicrotask',
          'nextTick',
          'requestAnimationFrame',
          'cancelAnimationFrame',
          'requestIdleCallback',
          'cancelIdleCallback',
          'hrtime',
          'performance',
        ],
      });
    });
    afterEach(() => {
      jest.useRealTimers();
      process.env.TZ = zone;
    });

    it('counts the overview and the logs to the end of Moscow’s day, not the browser’s', async () => {
      const fetch = adminApi(10);
      const { router } = renderApp('/dashboard/admin');
      await screen.findByTestId('overview-1');
      const statistics = fetch.mock.calls
        .map(([url]) => String(url))
        .find((url) => url.startsWith('/api/statistics/?'));
      expect(statistics).toContain('start_date=2026-10-31&end_date=2026-11-29');

      await act(() => router.navigate('/dashboard/admin/logs'));
      await screen.findByTestId('admin-log-row');
      const logs = new URL(
        fetch.mock.calls.map(([url]) => String(url)).find((url) => url.startsWith('/api/log/?'))!,
        'http://localhost',
      );
      // 2026-11-16 00:00 to 2026-11-29 23:59:59 Moscow time.
      expect(logs.searchParams.get('start_timestamp')).toBe(
        String(Date.parse('2026-11-15T21:00:00Z') / 1000),
      );
      expect(logs.searchParams.get('end_timestamp')).toBe(String(Date.parse('2026-11-29T20:59:59Z') / 1000));
    });
  });

  it('keeps the settings from an admin who is not root', async () => {
    adminApi(10);
    renderApp('/dashboard/admin/settings');
    expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeInTheDocument();
  });
});
