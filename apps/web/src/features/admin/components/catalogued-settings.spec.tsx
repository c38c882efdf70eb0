import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aSignedInAccount, answerApi, ok, renderApp } from '../../../../test/render-app';
// The route's chunk (with the Markdown renderer) is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

const puts = (fetch: jest.Mock) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === '/api/option/' && init?.method === 'PUT')
    .map(([, init]) => JSON.parse(String(init!.body)) as { key: string; value: string });

describe('root settings: the catalogue by group', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '1');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('switches registration off, sets a checked number, refuses a bad one before sending, and keeps other options apart', async () => {
    const fetch = answerApi({
      '/api/user/self': ok(aSignedInAccount({ id: 1, role: 100 })),
      '/api/option/secrets': ok({
        github_client_secret: true,
        google_client_secret: false,
        discord_client_secret: false,
      }),
      '/api/option/': (init) =>
        init?.method === 'PUT'
          ? ok(JSON.parse(String(init.body)))
          : ok([
              { key: 'QuotaForNewUser', value: '500000' },
              { key: 'Footer', value: 'Tollgate © 2026' },
            ]),
    });
    renderApp('/dashboard/admin/settings');

    const registration = await screen.findByRole('region', { name: 'Регистрация' });
    const register = within(registration).getByLabelText(/Регистрация новых пользователей/);
    expect(register).toHaveValue('');
    await userEvent.selectOptions(register, 'false');
    await userEvent.click(within(register.closest('form')!).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(puts(fetch)).toContainEqual({ key: 'RegisterEnabled', value: 'false' }));

    const quota = within(registration).getByLabelText(/Стартовая квота/);
    expect(quota).toHaveValue('500000');
    await userEvent.clear(quota);
    await userEvent.type(quota, '-5');
    expect(
      within(registration).getByText('Недопустимое значение: нужно целое неотрицательное число'),
    ).toBeInTheDocument();
    expect(within(quota.closest('form')!).getByRole('button', { name: 'Сохранить' })).toBeDisabled();

    const signIn = screen.getByRole('region', { name: 'Способы входа' });
    const secretStates = await within(signIn).findAllByTestId('secret-state');
    expect(secretStates.map((state) => state.textContent)).toEqual([
      'Секрет клиента задан в конфигурации',
      'Секрет клиента не задан: вход через этого провайдера не работает',
      'Секрет клиента не задан: вход через этого провайдера не работает',
    ]);

    const money = screen.getByRole('region', { name: 'Деньги и оплата' });
    const markup = within(money).getByLabelText(/Наценка на курс/);
    await userEvent.type(markup, '2.5');
    await userEvent.click(within(markup.closest('form')!).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() =>
      expect(puts(fetch)).toContainEqual({ key: 'ExchangeRateMarkupPercent', value: '2.5' }),
    );

    // Options outside the catalogue stay editable as they were; catalogued ones are not listed twice.
    const others = screen.getByRole('region', { name: 'Параметры' });
    expect(within(others).getByLabelText('Footer')).toHaveValue('Tollgate © 2026');
    expect(within(others).queryByLabelText('QuotaForNewUser')).toBeNull();
  });

  it('shows what an unset setting is now, as admin tells it, and nothing of the kind for a set one', async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount({ id: 1, role: 100 })),
      '/api/option/secrets': ok({
        github_client_secret: false,
        google_client_secret: false,
        discord_client_secret: false,
      }),
      '/api/option/configured': ok({
        RegisterEnabled: 'true',
        EmailVerificationEnabled: 'false',
        QuotaForNewUser: '0',
        ServerAddress: 'https://llm.example.ru',
        ChatModels: '',
        GroupRateLimits: '{}',
        CryptoEnabled: 'false',
      }),
      '/api/option/': ok([{ key: 'QuotaForNewUser', value: '500000' }]),
    });
    renderApp('/dashboard/admin/settings');

    const registration = await screen.findByRole('region', { name: 'Регистрация' });
    const register = within(registration).getByLabelText(/Регистрация новых пользователей/);
    expect(
      await within(register).findByRole('option', { name: 'Как в конфигурации (сейчас включено)' }),
    ).toBeInTheDocument();
    const verification = within(registration).getByLabelText(/Подтверждение email/);
    expect(
      within(verification).getByRole('option', { name: 'Как в конфигурации (сейчас выключено)' }),
    ).toBeInTheDocument();
    // Set by root: the stored value is in force, shown in the field itself.
    const quota = within(registration).getByLabelText(/Стартовая квота/);
    expect(within(quota.closest('form')!).queryByTestId('setting-in-force')).toBeNull();

    const site = screen.getByLabelText(/Адрес API/).closest('form')!;
    expect(within(site).getByTestId('setting-in-force')).toHaveTextContent(
      'Сейчас действует значение из конфигурации: https://llm.example.ru',
    );
    const chat = screen.getByLabelText(/Модели онлайн-чата/).closest('form')!;
    expect(within(chat).getByTestId('setting-in-force')).toHaveTextContent(
      'Сейчас действует значение из конфигурации: не задано',
    );
    const limits = screen.getByLabelText(/Лимиты групп/).closest('form')!;
    expect(within(limits).getByTestId('setting-in-force')).toHaveTextContent('не задано');
    const crypto = screen.getByLabelText(/Оплата криптовалютой/);
    expect(
      within(crypto).getByRole('option', { name: 'Как в конфигурации (сейчас выключено)' }),
    ).toBeInTheDocument();
    // What admin cannot tell (billing's own configuration) is left unsaid.
    const affiliate = screen.getByLabelText(/Партнёрское вознаграждение/).closest('form')!;
    expect(within(affiliate).queryByTestId('setting-in-force')).toBeNull();
    const card = screen.getByLabelText(/Оплата картой/);
    expect(within(card).getByRole('option', { name: 'Как в конфигурации' })).toBeInTheDocument();
  });

  it('saves GroupRateLimits as checked JSON and refuses JSON that is not valid before sending', async () => {
    const fetch = answerApi({
      '/api/user/self': ok(aSignedInAccount({ id: 1, role: 100 })),
      '/api/option/secrets': ok({
        github_client_secret: false,
        google_client_secret: false,
        discord_client_secret: false,
      }),
      '/api/option/': (init) => (init?.method === 'PUT' ? ok(JSON.parse(String(init.body))) : ok([])),
    });
    renderApp('/dashboard/admin/settings');

    const limits = await screen.findByRole('region', { name: 'Лимиты частоты API' });
    const field = within(limits).getByLabelText(/Лимиты групп/);
    expect(field.tagName).toBe('TEXTAREA');
    const save = within(field.closest('form')!).getByRole('button', { name: 'Сохранить' });

    await userEvent.click(field);
    await userEvent.paste('{"default": {"rpm": 60,}}');
    expect(
      within(limits).getByText(/^Недопустимое значение: нужен JSON вида \{"default"/),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(save).toBeDisabled();

    await userEvent.clear(field);
    await userEvent.paste('{"default": {"rpm": -1}}');
    expect(within(limits).getByText('Недопустимое значение: ошибка в default.rpm')).toBeInTheDocument();
    expect(save).toBeDisabled();

    const value = '{"default": {"rpm": 60, "tpm": 200000, "concurrency": 10}}';
    await userEvent.clear(field);
    await userEvent.paste(value);
    expect(field).toHaveAttribute('aria-invalid', 'false');
    await userEvent.click(save);
    await waitFor(() => expect(puts(fetch)).toEqual([{ key: 'GroupRateLimits', value }]));
  });
});
