import { screen, waitFor } from '@testing-library/react';
import { answerApi, renderApp } from '../../../../test/render-app';
import { QUERY_CACHE_STORAGE_KEY } from '../../../api/query-client';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

describe('session at start-up', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it("looks the user up and, on 401, says 'Авторизация не удалась' and signs out to /", async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '9');
    localStorage.setItem(QUERY_CACHE_STORAGE_KEY, '{"clientState":{}}');
    const fetch = answerApi({
      '/api/user/self': {
        status: 401,
        body: { success: false, message: 'Request failed with status code 401' },
      },
    });
    const { router } = renderApp('/no-such-page');
    expect(await screen.findByText('Авторизация не удалась')).toBeInTheDocument();
    expect(screen.getByText('выход из системы')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toBeNull();
    expect(fetch.mock.calls[0][1].headers).toMatchObject({ 'New-Api-User': '9' });
  });

  it('does not look anyone up for a visitor', async () => {
    const fetch = answerApi({});
    renderApp('/no-such-page');
    await screen.findByRole('heading', { name: 'Страница не найдена' });
    expect(fetch).not.toHaveBeenCalledWith('/api/user/self', expect.anything());
  });
});
