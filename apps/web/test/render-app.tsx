import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { createAppQueryClient } from '../src/api/query-client';
import { buildRoutes } from '../src/app/router';
import type { Device } from '../src/app/device';
import { i18next } from '../src/i18n/i18n';
import { STORAGE_KEYS } from '../src/lib/local-storage-keys';

/** Renders the real route set at `path`, in Russian, with a fresh query cache. */
export function renderApp(path: string, device: Device = 'desktop') {
  void i18next.changeLanguage('ru');
  const router = createMemoryRouter(buildRoutes(device), { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={createAppQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router };
}

type Answer = { status: number; body: unknown };
/** A fixed answer, or one chosen per call (by method, query, or what was sent before). */
type Route = Answer | ((init: RequestInit | undefined, url: URL) => Answer);

/** jsdom has no fetch: answers each `/api` path (without query) from the table, 404 envelope otherwise. */
export function answerApi(table: Record<string, Route>): jest.Mock {
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).split('?')[0];
    const route = table[path];
    const answer = (typeof route === 'function'
      ? route(init, new URL(String(input), 'http://localhost'))
      : route) ?? {
      status: 404,
      body: { success: false, message: `No route for ${path}` },
    };
    return { status: answer.status, ok: answer.status < 300, json: async () => answer.body } as Response;
  });
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return fetch;
}

export const enabledStatus = {
  system_name: 'Tollgate',
  version: '0.1.0',
  server_address: 'http://127.0.0.1:3000',
  chat_models: [],
  github_oauth: true,
  github_client_id: 'gh-client',
  google_oauth: false,
  google_client_id: '',
  discord_oauth: true,
  discord_client_id: '',
  discord_redirect_uri: '',
  email_verification: true,
  quota_per_unit: 500000,
  default_currency: 'RUB',
  payment_test_enabled: true,
  start_time: 1,
  register_enabled: true,
  password_login: true,
  yookassa_enabled: true,
  crypto_enabled: true,
  group_rate_limits: {},
};

/** A clean start as a signed-in user (id 5, as aSignedInAccount) who has accepted cookies. */
export function startSignedIn(): void {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.userId, '5');
  localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
}

/** A successful answer in the API's envelope. */
export const ok = (data?: unknown, message = '') => ({ status: 200, body: { success: true, message, data } });

/** `GET /api/user/self` of the signed-in user the screens are rendered for (id 5, Анна). */
export const aSignedInAccount = (overrides: Record<string, unknown> = {}) => ({
  id: 5,
  username: 'anna',
  display_name: 'Анна',
  role: 1,
  status: 1,
  group: 'default',
  email: 'anna@example.ru',
  quota: 1_000_000,
  used_quota: 250_000,
  request_count: 12,
  aff_code: null,
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: null,
  setting: '{}',
  github_id: '',
  google_id: '',
  discord_id: '',
  ...overrides,
});

/** An API key as `/api/token/` lists it (TokenView): key 7 of user 5, enabled, unlimited, no limits. */
export const aTokenView = (overrides: Record<string, unknown> = {}) => ({
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

/** A channel as `/api/channel/` lists it (ChannelView): OpenAI type, enabled, never tested, no breaker. */
export const aChannelView = (id: number, name: string, overrides: Record<string, unknown> = {}) => ({
  id,
  type: 1,
  name,
  key: 'sk-a…wxyz',
  base_url: 'https://upstream.example.test',
  models: 'gpt-4o-mini',
  model_mapping: '',
  group: 'default',
  priority: 0,
  weight: 1,
  tag: '',
  status: 1,
  status_reason: '',
  status_time: 0,
  auto_ban: 1,
  test_model: '',
  response_time: 0,
  test_time: 0,
  test_error: null,
  used_quota: 0,
  max_concurrency: 0,
  other: '',
  created_time: 1,
  stream_headers_timeout: null,
  breaker: null,
  ...overrides,
});
