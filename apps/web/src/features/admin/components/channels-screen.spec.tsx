import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aChannelView, aSignedInAccount, answerApi, ok, renderApp } from '../../../../test/render-app';
import { tableDateTime } from '../../../i18n/date-time';
import { intlLocale } from '../../../i18n/language';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
// The route's chunk is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';

const TESTED_AT = 1_767_000_000;
const NEXT_TRIAL_AT = 1_767_003_120;

const channels = [
  aChannelView(1, 'refused', {
    response_time: 2,
    test_time: TESTED_AT,
    test_error: 'HTTP 401 Unauthorized: bad key',
  }),
  aChannelView(2, 'held', {
    response_time: 24,
    test_time: TESTED_AT,
    breaker: { state: 'open', until: NEXT_TRIAL_AT },
  }),
  aChannelView(3, 'trial', { breaker: { state: 'half_open', until: null } }),
  aChannelView(4, 'healthy', { response_time: 310, test_time: TESTED_AT, stream_headers_timeout: 120 }),
];

const rowOf = (rows: HTMLElement[], name: string) => rows.find((row) => within(row).queryByText(name))!;

describe('admin channels screen', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '1');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
    answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/channel/': ok({ page: 1, page_size: 20, total: 4, items: channels, type_counts: { 1: 4 } }),
    });
  });

  it("shows a failed last test as a failure with its time and relay's words, and an open breaker apart from the status", async () => {
    renderApp('/dashboard/admin/channels');
    const rows = await screen.findAllByTestId('admin-channel-row');

    const refused = rowOf(rows, 'refused');
    expect(within(refused).getByTestId('admin-channel-test-error')).toHaveTextContent(
      `Проверка не прошла ${tableDateTime('ru').format(new Date(TESTED_AT * 1000))}: HTTP 401 Unauthorized: bad key`,
    );
    expect(refused).not.toHaveTextContent('2 ms');
    expect(within(refused).queryByTestId('admin-channel-breaker')).toBeNull();

    const held = rowOf(rows, 'held');
    const trialTime = new Intl.DateTimeFormat(intlLocale('ru'), { timeStyle: 'short' }).format(
      new Date(NEXT_TRIAL_AT * 1000),
    );
    expect(held).toHaveTextContent('Включён');
    expect(within(held).getByTestId('admin-channel-breaker')).toHaveTextContent(
      `Исключён после сбоев, следующая проба в ${trialTime}`,
    );
    expect(held).toHaveTextContent('24 ms');
    expect(within(rowOf(rows, 'trial')).getByTestId('admin-channel-breaker')).toHaveTextContent(
      'Исключён после сбоев, ждёт пробного запроса',
    );

    const healthy = rowOf(rows, 'healthy');
    expect(healthy).toHaveTextContent('310 ms');
    expect(within(healthy).queryByTestId('admin-channel-test-error')).toBeNull();
    expect(within(healthy).queryByTestId('admin-channel-breaker')).toBeNull();
  });

  it("edits a channel's own stream timeout in the advanced section, refusing one out of bounds", async () => {
    renderApp('/dashboard/admin/channels');
    const rows = await screen.findAllByTestId('admin-channel-row');
    await userEvent.click(within(rowOf(rows, 'healthy')).getByRole('button', { name: 'Изменить' }));

    const field = await screen.findByLabelText('Ожидание первого токена потока, секунд');
    expect(field).toHaveValue(120);
    await userEvent.clear(field);
    await userEvent.type(field, '601');
    expect(screen.getByText('Целое число от 1 до 600 или пусто')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
    await userEvent.clear(field);
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeEnabled();
  });
});
