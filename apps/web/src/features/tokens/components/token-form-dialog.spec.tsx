import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  answerApi,
  aSignedInAccount,
  aTokenView,
  enabledStatus,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';

/** The signed-in user's group, default: 60 requests and 200,000 tokens a minute, concurrency free. */
const groupLimits = { group: 'default', limits: { rpm: 60, tpm: 200_000, concurrency: 0 } };

const sent = (fetch: jest.Mock, method: string) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === '/api/token/' && init?.method === method)
    .map(([, init]) => JSON.parse(String(init!.body)) as Record<string, unknown>);

function tokensApi(keys: unknown[], limits = groupLimits) {
  return answerApi({
    '/api/user/self': ok(aSignedInAccount({ group: limits.group })),
    '/api/status': ok(enabledStatus),
    '/api/token/group_limits': ok(limits),
    '/api/token/': (init) =>
      init?.method === 'POST' || init?.method === 'PUT'
        ? ok(aTokenView(JSON.parse(String(init.body)) as Record<string, unknown>))
        : ok({ items: keys, total: keys.length, page: 1, page_size: 100 }),
  });
}

async function retype(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  if (text) await userEvent.type(field, text);
}

describe('API key form: rate limits', () => {
  beforeEach(() => {
    startSignedIn();
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

  it("checks an edited key against its owner's group's limits and sends them on update; empty is the group's", async () => {
    const vip = { group: 'vip', limits: { rpm: 10, tpm: 0, concurrency: 0 } };
    const fetch = tokensApi([aTokenView({ group: 'vip', rpm_limit: 5, tpm_limit: 1_000 })], vip);
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
    startSignedIn();
  });

  const asked = (dialog: HTMLElement, row: number) =>
    within(dialog).getByLabelText(`Клиент просит, строка ${row}`);
  const served = (dialog: HTMLElement, row: number) =>
    within(dialog).getByLabelText(`Отвечает, строка ${row}`);

  async function addAlias(dialog: HTMLElement, row: number, from: string, to: string) {
    await userEvent.click(within(dialog).getByRole('button', { name: 'Добавить псевдоним' }));
    if (from) await userEvent.type(asked(dialog, row), from);
    if (to) await userEvent.type(served(dialog, row), to);
  }

  async function openNewKeyForm() {
    renderApp('/dashboard/tokens');
    await userEvent.click(await screen.findByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Название'), 'ci');
    return dialog;
  }

  it('sends the aliases on create, names trimmed and a blank row ignored', async () => {
    const fetch = tokensApi([]);
    const dialog = await openNewKeyForm();
    await addAlias(dialog, 1, ' gpt-4 ', 'gpt-4o');
    await addAlias(dialog, 2, '', '');
    await addAlias(dialog, 3, 'gpt-3.5-turbo', 'gpt-4o-mini');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(sent(fetch, 'POST')).toHaveLength(1));
    expect(sent(fetch, 'POST')[0].model_aliases).toEqual({
      'gpt-4': 'gpt-4o',
      'gpt-3.5-turbo': 'gpt-4o-mini',
    });
  });

  it('sends an empty map on create when no alias is given', async () => {
    const fetch = tokensApi([]);
    const dialog = await openNewKeyForm();
    expect(within(dialog).queryByLabelText('Клиент просит, строка 1')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await waitFor(() => expect(sent(fetch, 'POST')).toHaveLength(1));
    expect(sent(fetch, 'POST')[0].model_aliases).toEqual({});
  });

  it("shows a key's aliases in its row, and nothing for a key without them", async () => {
    tokensApi([
      aTokenView({ model_aliases: { 'gpt-4': 'gpt-4o', 'claude-3-opus': 'claude-sonnet-4-5' } }),
      aTokenView({ id: 8, name: 'plain' }),
    ]);
    renderApp('/dashboard/tokens');
    const [withAliases, plain] = await screen.findAllByTestId('token-row');
    expect(within(withAliases).getByTestId('token-aliases')).toHaveTextContent(
      'Псевдонимы:gpt-4 → gpt-4o, claude-3-opus → claude-sonnet-4-5',
    );
    expect(within(plain).getByText('plain')).toBeInTheDocument();
    expect(within(plain).queryByTestId('token-aliases')).toBeNull();
  });

  it("loads a key's aliases for editing and sends the changed ones on update", async () => {
    const fetch = tokensApi([
      aTokenView({ model_aliases: { 'gpt-4': 'gpt-4o', 'gpt-3.5-turbo': 'gpt-4o-mini' } }),
    ]);
    renderApp('/dashboard/tokens');
    await userEvent.click(
      within(await screen.findByTestId('token-row')).getByRole('button', { name: 'Изменить' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(asked(dialog, 1)).toHaveValue('gpt-4');
    expect(served(dialog, 1)).toHaveValue('gpt-4o');
    expect(asked(dialog, 2)).toHaveValue('gpt-3.5-turbo');
    expect(served(dialog, 2)).toHaveValue('gpt-4o-mini');

    await retype(served(dialog, 1), 'o3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить псевдоним, строка 2' }));
    await addAlias(dialog, 2, 'o1', 'o3-mini');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent(fetch, 'PUT')).toHaveLength(1));
    expect(sent(fetch, 'PUT')[0]).toMatchObject({ id: 7, model_aliases: { 'gpt-4': 'o3', o1: 'o3-mini' } });
  });

  it('sends an empty map on update once every alias is removed', async () => {
    const fetch = tokensApi([aTokenView({ model_aliases: { 'gpt-4': 'gpt-4o' } })]);
    renderApp('/dashboard/tokens');
    await userEvent.click(
      within(await screen.findByTestId('token-row')).getByRole('button', { name: 'Изменить' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить псевдоним, строка 1' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(sent(fetch, 'PUT')).toHaveLength(1));
    expect(sent(fetch, 'PUT')[0]).toMatchObject({ id: 7, model_aliases: {} });
  });

  it('refuses a self-mapping, a chain, a repeated name and a half-filled row without a request', async () => {
    const fetch = tokensApi([]);
    const dialog = await openNewKeyForm();
    const create = () => userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));

    await addAlias(dialog, 1, 'gpt-4', 'gpt-4');
    await create();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Псевдонимы, строка 1: «gpt-4» не может быть псевдонимом самой себя',
    );

    await retype(served(dialog, 1), 'gpt-4o');
    await addAlias(dialog, 2, 'gpt-4o', 'o3');
    await create();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Псевдонимы, строка 1: «gpt-4o» сама является псевдонимом, а цепочки не допускаются — укажите для «gpt-4» конечную модель',
    );

    await retype(asked(dialog, 2), 'gpt-4');
    await create();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Псевдонимы, строка 2: для «gpt-4» псевдоним уже задан выше',
    );

    await retype(asked(dialog, 2), '');
    await create();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Псевдонимы, строка 2: укажите обе модели — запрошенную и отвечающую',
    );
    expect(sent(fetch, 'POST')).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить псевдоним, строка 2' }));
    await create();
    await waitFor(() => expect(sent(fetch, 'POST')).toHaveLength(1));
    expect(sent(fetch, 'POST')[0].model_aliases).toEqual({ 'gpt-4': 'gpt-4o' });
  });

  it('stops adding rows at 64 aliases', async () => {
    const aliases = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`model-${i}`, 'gpt-4o']));
    tokensApi([aTokenView({ model_aliases: aliases })]);
    renderApp('/dashboard/tokens');
    await userEvent.click(
      within(await screen.findByTestId('token-row')).getByRole('button', { name: 'Изменить' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(asked(dialog, 64)).toHaveValue('model-63');
    expect(within(dialog).getByRole('button', { name: 'Добавить псевдоним' })).toBeDisabled();
  });
});
