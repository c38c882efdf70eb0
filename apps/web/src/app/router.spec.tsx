import { screen, waitFor } from '@testing-library/react';
import { answerApi, aSignedInAccount, ok, renderApp, startSignedIn } from '../../test/render-app';
import { STORAGE_KEYS } from '../lib/local-storage-keys';
import { deviceForUserAgent } from './device';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';

describe('route set choice', () => {
  it('gives phones the mobile set and everything else the desktop set', () => {
    expect(deviceForUserAgent(IPHONE)).toBe('mobile');
    expect(deviceForUserAgent(ANDROID_PHONE)).toBe('mobile');
    expect(deviceForUserAgent(ANDROID_TABLET)).toBe('desktop');
    expect(deviceForUserAgent(IPAD)).toBe('desktop');
    expect(deviceForUserAgent(DESKTOP)).toBe('desktop');
  });
});

describe.each(['desktop', 'mobile'] as const)('%s routes', (device) => {
  beforeEach(() => {
    localStorage.clear();
    answerApi({});
  });

  it('shows the landing page at /', async () => {
    renderApp('/', device);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Один ключ ко всем ведущим языковым моделям',
    );
  });

  it('shows the login screen to a visitor', async () => {
    renderApp('/login', device);
    expect(await screen.findByRole('heading', { name: 'Вход в Tollgate' })).toBeInTheDocument();
  });

  it('sends a signed-in user from /login to /dashboard', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '5');
    const { router } = renderApp('/login', device);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('sends a visitor from a sign-in page to /login', async () => {
    const { router } = renderApp('/topup', device);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('takes a signed-in user from /topup to the payment screen, query kept', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '5');
    const { router } = renderApp('/topup?status=success', device);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/payment'));
    expect(router.state.location.search).toBe('?status=success');
  });

  it('shows the not-found page for an unknown path', async () => {
    renderApp('/no-such-page', device);
    expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeInTheDocument();
  });

  it('serves the OAuth return pages', async () => {
    renderApp('/oauth/github?code=abc', device);
    expect(await screen.findByRole('alert')).toHaveTextContent('GitHub OAuth state not found');
  });
});

describe('mobile shell', () => {
  beforeEach(() => {
    localStorage.clear();
    answerApi({});
  });

  it('has a bottom bar, but not on /login', async () => {
    const { unmount } = renderApp('/', 'mobile');
    expect(await screen.findByRole('navigation', { name: 'Нижняя навигация' })).toBeInTheDocument();
    unmount();
    renderApp('/login', 'mobile');
    await screen.findByRole('heading', { name: 'Вход в Tollgate' });
    expect(screen.queryByRole('navigation', { name: 'Нижняя навигация' })).toBeNull();
  });

  it('says on a phone that the admin area opens on a computer', async () => {
    startSignedIn();
    answerApi({ '/api/user/self': ok(aSignedInAccount({ role: 100 })) });
    renderApp('/dashboard/admin/users', 'mobile');
    expect(await screen.findByRole('heading', { name: 'Страница не найдена' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Панель администратора открывается только в браузере на компьютере: откройте этот адрес там.',
      ),
    ).toBeInTheDocument();
  });
});
