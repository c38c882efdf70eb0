import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, ok, renderApp } from '../../../../test/render-app';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
// The route's chunk (with the Markdown renderer) is compiled when this file loads, not inside a
// find* timeout: a fresh CI machine has no transform cache.
import '../../../ui/markdown';

const noIncidents = ok({ page: 1, page_size: 20, total: 0, items: [] });

describe('notice banner', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it("shows the administrators' notice as Markdown until it is hidden, and again once it changes", async () => {
    answerApi({ '/api/notice': ok('**Скидка 10%** на Claude до пятницы'), '/api/incident/': noIncidents });
    const first = renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Объявление' });
    expect((await within(banner).findByText('Скидка 10%')).tagName).toBe('STRONG');
    await userEvent.click(within(banner).getByRole('button', { name: 'Скрыть объявление' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Объявление' })).not.toBeInTheDocument());
    first.unmount();

    const second = renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: 'Объявление' })).not.toBeInTheDocument();
    second.unmount();

    answerApi({ '/api/notice': ok('Новые модели GLM'), '/api/incident/': noIncidents });
    renderApp('/');
    expect(await screen.findByRole('region', { name: 'Объявление' })).toHaveTextContent('Новые модели GLM');
  });

  it('shows nothing when there is no notice', async () => {
    answerApi({ '/api/notice': ok(''), '/api/incident/': noIncidents });
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: 'Объявление' })).not.toBeInTheDocument();
  });
});
