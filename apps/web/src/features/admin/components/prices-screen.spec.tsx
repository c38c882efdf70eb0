import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, aSignedInAccount, ok, renderApp, startSignedIn } from '../../../../test/render-app';
// The route's chunk is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';

const claude = {
  model: 'claude-sonnet-4-5',
  context_window: 200000,
  provider: 'anthropic',
  input_price: 3,
  output_price: 15,
  cached_input_price: 0.3,
  cache_write_price: 3.75,
  cache_write_1h_price: null,
  intelligence: 5,
  speed: 3,
  sota: true,
  deprecated: false,
};

const savedTo = (fetch: jest.Mock, path: string) =>
  fetch.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && init?.method === 'PUT');

describe('the admin price editor', () => {
  beforeEach(() => startSignedIn());

  it("edits a model's cache-write prices: set for an hour, cleared for 5 minutes (sent as null)", async () => {
    const fetch = answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/pricing': {
        status: 200,
        body: { success: true, message: '', data: [claude], group_ratio: { default: 1 } },
      },
      '/api/pricing/models/claude-sonnet-4-5': ok({}),
    });
    renderApp('/dashboard/admin/prices');
    const row = await screen.findByTestId('admin-price-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    const fiveMinutes = within(dialog).getByLabelText(/^Запись в кэш \(5 минут\), \$ за 1M токенов/);
    const hour = within(dialog).getByLabelText(/^Запись в кэш \(1 час\), \$ за 1M токенов/);
    expect(fiveMinutes).toHaveValue('3.75');
    expect(hour).toHaveValue('');
    expect(dialog).toHaveTextContent('Пусто — по цене записи в кэш на 5 минут');
    await userEvent.clear(fiveMinutes);
    await userEvent.type(hour, '6');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(savedTo(fetch, '/api/pricing/models/claude-sonnet-4-5')).toHaveLength(1));
    expect(
      JSON.parse(String(savedTo(fetch, '/api/pricing/models/claude-sonnet-4-5')[0]![1]!.body)),
    ).toMatchObject({
      input_price: '3',
      cache_write_price: null,
      cache_write_1h_price: '6',
    });
  });

  it('refuses to save a malformed write price', async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/pricing': {
        status: 200,
        body: { success: true, message: '', data: [claude], group_ratio: { default: 1 } },
      },
    });
    renderApp('/dashboard/admin/prices');
    const row = await screen.findByTestId('admin-price-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/^Запись в кэш \(1 час\)/), '1e-6');
    expect(within(dialog).getByRole('button', { name: 'Сохранить' })).toBeDisabled();
  });
});
