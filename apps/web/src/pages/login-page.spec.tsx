import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answerApi, enabledStatus, ok, renderApp } from '../../test/render-app';
import { STORAGE_KEYS } from '../lib/local-storage-keys';

function field(name: string): HTMLInputElement {
  const input = document.querySelector(`input[name="${name}"]`);
  if (!input) throw new Error(`no input named ${name}`);
  return input as HTMLInputElement;
}

describe('login screen', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('opens on the register tab with the SPEC field names', async () => {
    answerApi({});
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Вход в Tollgate' });
    for (const name of [
      'username',
      'email',
      'password',
      'confirmPassword',
      'verification_code',
      'agreeToTerms',
      'agreeToDataProcessing',
    ]) {
      expect(field(name)).toBeInTheDocument();
    }
  });

  it('offers no register tab while an operator has closed registration, and opens on sign-in', async () => {
    answerApi({ '/api/status': ok({ ...enabledStatus, register_enabled: false }) });
    renderApp('/login?tab=register');
    await waitFor(() => expect(field('username')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Регистрация' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Вход' })).toHaveAttribute('aria-current', 'page');
    expect(document.querySelector('input[name="agreeToTerms"]')).toBeNull();
  });

  it('keeps the tab in ?tab= and shows the reset form field names', async () => {
    answerApi({});
    const { router } = renderApp('/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Сброс пароля' }));
    expect(router.state.location.search).toBe('?tab=reset');
    for (const name of ['email', 'verificationCode', 'newPassword', 'confirmNewPassword']) {
      expect(field(name)).toBeInTheDocument();
    }
  });

  it('sends the consents the server records with the registration', async () => {
    const fetch = answerApi({
      '/api/user/register': ok({ id: 7, username: 'anna', display_name: 'anna', role: 1 }),
    });
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Вход в Tollgate' });
    await userEvent.type(field('username'), 'anna');
    await userEvent.type(field('email'), 'anna@example.com');
    await userEvent.type(field('password'), 'secret-123');
    await userEvent.type(field('confirmPassword'), 'secret-123');
    await userEvent.type(field('verification_code'), '123456');
    await userEvent.click(field('agreeToTerms'));
    await userEvent.click(field('agreeToDataProcessing'));
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/user/register'))).toBe(true),
    );
    const [, init] = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/user/register')) as [
      string,
      RequestInit,
    ];
    expect(JSON.parse(String(init.body))).toEqual({
      username: 'anna',
      password: 'secret-123',
      email: 'anna@example.com',
      verification_code: '123456',
      agree_to_terms: true,
      agree_to_data_processing: true,
    });
  });

  it('enables the login button only when both fields are filled', async () => {
    answerApi({});
    renderApp('/login?tab=login');
    const button = await screen.findByRole('button', { name: 'Войти' });
    expect(button).toBeDisabled();
    await userEvent.type(field('username'), 'anna');
    expect(button).toBeDisabled();
    await userEvent.type(field('password'), 'secret-123');
    expect(button).toBeEnabled();
  });

  it('shows the server failure as it is when login is not available', async () => {
    answerApi({});
    renderApp('/login?tab=login');
    await userEvent.type(await screen.findByLabelText('Имя пользователя'), 'anna');
    await userEvent.type(field('password'), 'secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No route for /api/user/login');
  });

  it('signs in, keeps the user id and opens the dashboard', async () => {
    const fetch = answerApi({
      '/api/user/login': ok({ id: 12, username: 'anna', display_name: '', email: '' }),
    });
    const { router } = renderApp('/login?tab=login');
    await userEvent.type(await screen.findByLabelText('Имя пользователя'), 'anna');
    await userEvent.type(field('password'), 'secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe('12');
    expect(fetch).toHaveBeenCalledWith('/api/user/login', expect.objectContaining({ method: 'POST' }));
  });

  it("refuses a user id of 0 with 'Invalid user ID'", async () => {
    answerApi({ '/api/user/login': ok({ id: 0, username: 'anna', display_name: '', email: '' }) });
    renderApp('/login?tab=login');
    await userEvent.type(await screen.findByLabelText('Имя пользователя'), 'anna');
    await userEvent.type(field('password'), 'secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid user ID');
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
  });

  it('shows the register validation message in Russian', async () => {
    answerApi({});
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Зарегистрироваться' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Пожалуйста, введите имя пользователя, email, пароль и подтверждение пароля',
    );
  });

  it('disables registering while the password is longer than 22 characters', async () => {
    answerApi({});
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Пароль'), 'x'.repeat(23));
    expect(screen.getByRole('button', { name: 'Зарегистрироваться' })).toBeDisabled();
    expect(screen.getByText('Пароль должен быть не более 22 символов')).toBeInTheDocument();
  });
});

describe('code sending cooldown', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  it('counts 60 seconds down after a code is sent', async () => {
    answerApi({ '/api/verification': ok() });
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp('/login');
    await user.type(await screen.findByLabelText('E-mail'), 'anna@example.ru');
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(await screen.findByRole('button', { name: 'Повторно через 60 с' })).toBeDisabled();
    for (let second = 0; second < 59; second++) act(() => void jest.advanceTimersByTime(1000));
    expect(screen.getByRole('button', { name: 'Повторно через 1 с' })).toBeDisabled();
    act(() => void jest.advanceTimersByTime(1000));
    expect(screen.getByRole('button', { name: 'Отправить код' })).toBeEnabled();
  });

  it('puts the cooldown back to 0 and shows the error when sending fails', async () => {
    answerApi({});
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp('/login');
    await user.type(await screen.findByLabelText('E-mail'), 'anna@example.ru');
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No route for /api/verification');
    expect(screen.getByRole('button', { name: 'Отправить код' })).toBeEnabled();
  });

  it('does not send without a valid e-mail', async () => {
    const fetch = answerApi({});
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Пожалуйста, введите email');
    expect(fetch).not.toHaveBeenCalledWith(expect.stringContaining('/api/verification'), expect.anything());
  });
});

describe('OAuth buttons', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('appear only for the providers the status enables', async () => {
    answerApi({ '/api/status': ok(enabledStatus) });
    renderApp('/login?tab=login');
    expect(await screen.findByRole('button', { name: 'Продолжить через GitHub' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Продолжить через Discord' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Продолжить через Google' })).toBeNull();
  });

  it('say so when a provider has no client id', async () => {
    answerApi({ '/api/status': ok(enabledStatus) });
    renderApp('/login?tab=login');
    await userEvent.click(await screen.findByRole('button', { name: 'Продолжить через Discord' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Discord OAuth не настроен');
  });

  it('need both consents on the register tab', async () => {
    answerApi({ '/api/status': ok(enabledStatus) });
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Продолжить через GitHub' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Для регистрации через OAuth необходимо принять Оферту, Правила и Политику сервиса, а также согласиться на обработку персональных данных',
    );
  });

  it('request a state and keep it per provider', async () => {
    const fetch = answerApi({ '/api/status': ok(enabledStatus), '/api/oauth/state': ok('state-123') });
    renderApp('/login?tab=login');
    // jsdom cannot leave the page: the redirect fails after the state is stored, which is what we check.
    await userEvent.click(await screen.findByRole('button', { name: 'Продолжить через GitHub' }));
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.oauthState('github'))).toBe('state-123'));
    expect(fetch).toHaveBeenCalledWith('/api/oauth/state', expect.anything());
  });

  it("show 'Failed to fetch system status' when the status cannot be read", async () => {
    answerApi({ '/api/status': { status: 503, body: { success: false, message: 'down' } } });
    renderApp('/login?tab=login');
    expect(await screen.findByText('Failed to fetch system status')).toBeInTheDocument();
  });
});
