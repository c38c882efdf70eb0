import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, renderApp } from '../../../../test/render-app';
import { i18next } from '../../../i18n/i18n';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
import { BOTTOM_BAR_HEIGHT_VAR } from './bottom-bar';

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

  it('stands above the bottom bar on a phone, and at the foot of a phone screen without one (/login)', async () => {
    const barHeight = () => document.documentElement.style.getPropertyValue(BOTTOM_BAR_HEIGHT_VAR);
    const { unmount } = renderApp('/', 'mobile');
    await screen.findByRole('navigation', { name: 'Нижняя навигация' });
    expect(banner()?.className).toContain(`var(${BOTTOM_BAR_HEIGHT_VAR},0px)`);
    expect(barHeight()).toBe('72px');
    unmount();
    renderApp('/login', 'mobile');
    await screen.findByRole('heading', { name: 'Вход в Tollgate' });
    expect(banner()).not.toBeNull();
    expect(barHeight()).toBe('');
  });
});
