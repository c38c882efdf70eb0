import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aSignedInAccount, answerApi, enabledStatus, ok, renderApp } from '../../../../test/render-app';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

const aKey = (overrides: Record<string, unknown> = {}) => ({
  id: 7,
  user_id: 5,
  key: 'sk-abcd****wxyz',
  name: 'ci',
  status: 1,
  created_time: 1,
  accessed_time: 1,
  expired_time: -1,
  remain_quota: 0,
  unlimited_quota: true,
  used_quota: 0,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
  rpm_limit: 0,
  tpm_limit: 0,
  concurrency_limit: 0,
  model_aliases: {},
  ...overrides,
});

/** default: 60 requests and 200,000 tokens a minute, concurrency free; vip: 10 requests a minute. */
const status = {
  ...enabledStatus,
  group_rate_limits: {
    default: { rpm: 60, tpm: 200_000, concurrency: 0 },
    vip: { rpm: 10, tpm: 0, concurrency: 0 },
  },
};

const sent = (fetch: jest.Mock, method: string) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === '/api/token/' && init?.method === method)
    .map(([, init]) => JSON.parse(String(init!.body)) as Record<string, unknown>);

function tokensApi(keys: unknown[]) {
  return answerApi({
    '/api/user/self': ok(aSignedInAccount({ group: 'default' })),
    '/api/status': ok(status),
    '/api/token/': (init) =>
      init?.method === 'POST' || init?.method === 'PUT'
        ? ok(aKey(JSON.parse(String(init.body)) as Record<string, unknown>))
        : ok({ items: keys, total: keys.length, page: 1, page_size: 100 }),
  });
}

async function retype(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  if (text) await userEvent.type(field, text);
}

describe('API key form: rate limits', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '5');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it("shows the user's group limits, refuses a limit above them, and sends the key's limits on create", async () => {
    const fetch = tokensApi([]);
    renderApp('/dashboard/tokens');
    await userEvent.click(await screen.findByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    const hints = await within(dialog).findAllByTestId('group-limit');
    expect(hints.map((hint) => hint.textContent)).toEqual([
      'Группа «default»: 60',
      expect.stringMatching(/^Группа «default»: 200\s000$/),
      'Группа «default»: без ограничения',
    ]);

    await userEvent.type(within(dialog).getByLabelText('Название'), 'ci');
    const rpm = within(dialog).getByLabelText('Запросов в минуту');
    const tpm = within(dialog).getByLabelText('Токенов в минуту');
    const concurrency = within(dialog).getByLabelText('Одновременных запросов');
    await retype(rpm, '61');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Запросов в минуту: значение не может быть выше лимита группы (60)',
    );
    expect(sent(fetch, 'POST')).toEqual([]);

    await retype(rpm, '30');
    await retype(tpm, '100000');
    await retype(concurrency, '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(sent(fetch, 'POST')).toHaveLength(1));
    expect(sent(fetch, 'POST')[0]).toMatchObject({
      name: 'ci',
      rpm_limit: 30,
      tpm_limit: 100_000,
      concurrency_limit: 5,
    });
  });

  it("checks an edited key against its own group's limits and sends them on update; empty is the group's", async () => {
    const fetch = tokensApi([aKey({ group: 'vip', rpm_limit: 5, tpm_limit: 1_000 })]);
    renderApp('/dashboard/tokens');
    const row = await screen.findByTestId('token-row');
    expect(within(row).getByTestId('token-rate-limits')).toHaveTextContent(
      /^Лимиты частоты:5 запросов\/мин · 1\s000 токенов\/мин$/,
    );

    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findAllByTestId('group-limit'))[0]).toHaveTextContent('Группа «vip»: 10');
    const rpm = within(dialog).getByLabelText('Запросов в минуту');
    expect(rpm).toHaveValue('5');
    await retype(rpm, '11');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('не может быть выше лимита группы (10)');
    expect(sent(fetch, 'PUT')).toEqual([]);

    await retype(rpm, '10');
    await retype(within(dialog).getByLabelText('Токенов в минуту'), '');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent(fetch, 'PUT')).toHaveLength(1));
    expect(sent(fetch, 'PUT')[0]).toMatchObject({
      id: 7,
      rpm_limit: 10,
      tpm_limit: 0,
      concurrency_limit: 0,
    });
  });

  it('refuses a limit that is not a whole number', async () => {
    const fetch = tokensApi([]);
    renderApp('/dashboard/tokens');
    await userEvent.click(await screen.findByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Название'), 'ci');
    await userEvent.type(within(dialog).getByLabelText('Одновременных запросов'), '2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Одновременных запросов: укажите целое число от 0 до 1 000 000 000',
    );
    expect(sent(fetch, 'POST')).toEqual([]);
  });
});

describe('API key form: model aliases', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '5');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('sends the aliases on create, one "asked = served" a line', async () => {
    const fetch = tokensApi([]);
    renderApp('/dashboard/tokens');
    await userEvent.click(await screen.findByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Название'), 'ci');
    await userEvent.type(
      within(dialog).getByLabelText('Псевдонимы моделей'),
      'gpt-4 = gpt-4o{enter}gpt-3.5-turbo=gpt-4o-mini',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(sent(fetch, 'POST')).toHaveLength(1));
    expect(sent(fetch, 'POST')[0]).toMatchObject({
      model_aliases: { 'gpt-4': 'gpt-4o', 'gpt-3.5-turbo': 'gpt-4o-mini' },
    });
  });

  it('shows a key’s aliases, loads them for editing, and refuses a chain or a self-mapping without a request', async () => {
    const fetch = tokensApi([aKey({ model_aliases: { 'gpt-4': 'gpt-4o' } })]);
    renderApp('/dashboard/tokens');
    const row = await screen.findByTestId('token-row');
    expect(within(row).getByTestId('token-aliases')).toHaveTextContent('gpt-4 → gpt-4o');
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    const aliases = within(dialog).getByLabelText('Псевдонимы моделей');
    expect(aliases).toHaveValue('gpt-4 = gpt-4o');

    for (const text of ['gpt-4 = gpt-4o{enter}gpt-4o = o3', 'gpt-4 = gpt-4', 'just-a-name']) {
      await retype(aliases, text);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
      expect(within(dialog).getByRole('alert')).toHaveTextContent('Псевдонимы: по одному');
    }
    expect(sent(fetch, 'PUT')).toEqual([]);

    await retype(aliases, '');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent(fetch, 'PUT')).toHaveLength(1));
    expect(sent(fetch, 'PUT')[0]).toMatchObject({ id: 7, model_aliases: {} });
  });
});
