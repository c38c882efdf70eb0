import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { createAppQueryClient } from '../src/api/query-client';
import { buildRoutes } from '../src/app/router';
import type { Device } from '../src/app/device';
import { i18next } from '../src/i18n/i18n';

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
};
