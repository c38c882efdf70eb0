import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, renderApp } from '../../../../test/render-app';
import { i18next } from '../../../i18n/i18n';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

const banner = () => screen.queryByRole('region', { name: 'Согласие на использование cookie' });

describe('cookie banner', () => {
  beforeEach(() => {
    localStorage.clear();
    answerApi({});
  });

  it('mentions analytics and links to the privacy policy', async () => {
    renderApp('/');
    expect(await screen.findByText(/аналитики/)).toBeInTheDocument();
    const privacy = within(banner() as HTMLElement).getByRole('link', {
      name: 'Политика конфиденциальности',
    });
    expect(privacy).toHaveAttribute('href', '/privacy');
  });

  it('stays until accepted, and the choice is remembered', async () => {
    const { unmount } = renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Понятно' }));
    expect(banner()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.cookieConsent)).toBe('accepted');
    unmount();
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Вход в Tollgate' });
    expect(banner()).toBeNull();
  });

  it('says "I understand" in English', async () => {
    renderApp('/');
    await i18next.changeLanguage('en');
    expect(await screen.findByRole('button', { name: 'I understand' })).toBeInTheDocument();
  });
});
