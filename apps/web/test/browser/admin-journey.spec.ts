import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { buildPlatform, startEmbeddedPlatform, type EmbeddedPlatform } from './embedded-platform';
import { startFakeUpstreamProcess, type FakeUpstreamProcess } from './fake-upstream-process';

const SCREENSHOTS = process.env.BROWSER_SCREENSHOT_DIR ?? join(__dirname, '..', '..', 'dist-screenshots');
const MODEL = 'journey-admin-model';
const PROMO = `JOURNEY${randomBytes(2).toString('hex').toUpperCase()}`;
const root = {
  username: `root${randomBytes(3).toString('hex')}`,
  password: `Root-pass-${randomBytes(4).toString('hex')}`,
};
const customer = { username: `cust${randomBytes(3).toString('hex')}`, password: 'Customer-pass-42' };

jest.setTimeout(240_000);

let platform: EmbeddedPlatform;
let upstream: FakeUpstreamProcess;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  buildPlatform();
  upstream = await startFakeUpstreamProcess([]);
  platform = await startEmbeddedPlatform(120_000, {
    TOLLGATE_ROOT_USERNAME: root.username,
    TOLLGATE_ROOT_PASSWORD: root.password,
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await upstream?.stop();
});

async function signedIn(who: {
  username: string;
  password: string;
}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: platform.url,
    locale: 'ru-RU',
    viewport: { width: 1366, height: 900 },
  });
  await context.addInitScript(() => localStorage.setItem('tollgate.cookie_consent', 'accepted'));
  const page = await context.newPage();
  await page.goto('/login?tab=login');
  await page.locator('input[name="username"]').fill(who.username);
  await page.locator('input[name="password"]').fill(who.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL('**/dashboard');
  return { context, page };
}

const toast = (page: Page, text: string | RegExp) =>
  page.locator('[data-sonner-toast]', { hasText: text }).first();
const notAStaticFile = (line: string) => !line.includes('"route":"/*"');
/**
 * Waits for `locator` to show; if it never does, fails with the platform's last log lines (the web
 * app's files left out) beside Playwright's words: this step failed once in CI with nothing to go on.
 */
async function shows(locator: Locator): Promise<void> {
  try {
    await locator.waitFor();
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n--- the platform's last output ---\n${platform.recentOutput(60, notAStaticFile)}`,
    );
  }
}
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Разделы админ-панели' }).getByRole('link', { name });

describe('an operator runs the business in the admin area; a customer sees the result', () => {
  let admin: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    admin = await signedIn(root);
  });
  afterAll(() => admin.context.close());

  it('root creates a user, a channel to the upstream and tests it', async () => {
    const { page } = admin;
    // The customer exists before registration closes (created the way support would).
    const created = await page.evaluate(async ({ username, password }) => {
      const res = await fetch('/api/user/', {
        method: 'POST',
        credentials: 'include',
        headers: {
          'content-type': 'application/json',
          'new-api-user': localStorage.getItem('tollgate.user_id') ?? '',
        },
        body: JSON.stringify({ username, password }),
      });
      return res.status;
    }, customer);
    expect(created).toBe(200);

    await page
      .getByRole('navigation', { name: 'Разделы панели' })
      .getByRole('link', { name: 'Админ-панель' })
      .click();
    await page.waitForURL('**/dashboard/admin/overview');
    await tab(page, 'Каналы').click();
    await page.getByRole('button', { name: 'Добавить канал' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Название').fill('journey upstream');
    await dialog.getByLabel('Ключ', { exact: true }).fill('sk-fake-openai-key');
    await dialog.getByLabel('Адрес API (base URL)').fill(upstream.url);
    await dialog.getByLabel('Модели').fill(MODEL);
    await dialog.getByLabel('Сопоставление моделей (JSON)').fill(JSON.stringify({ [MODEL]: 'gpt-4o-mini' }));
    const saved = page.waitForResponse(
      (answer) => answer.request().method() === 'POST' && new URL(answer.url()).pathname === '/api/channel/',
    );
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const answer = await saved;
    expect({ status: answer.status(), body: (await answer.json()) as unknown }).toMatchObject({
      status: 200,
      body: { success: true, data: { name: 'journey upstream' } },
    });
    const row = page.getByTestId('admin-channel-row').filter({ hasText: 'journey upstream' });
    await shows(row);
    await row.getByRole('button', { name: 'Проверить' }).click();
    await toast(page, /«journey upstream» ответил за \d+ мс/).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-channels.png'), fullPage: true });
  });

  it('root sets the model’s price and creates a promo code', async () => {
    const { page } = admin;
    await tab(page, 'Цены и группы').click();
    await page.getByRole('button', { name: 'Добавить модель' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Модель').fill(MODEL);
    await dialog.getByLabel(/^Ввод, \$ за 1M токенов/).fill('0.5');
    await dialog.getByLabel(/^Вывод, \$ за 1M токенов/).fill('1.5');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByTestId('admin-price-row').filter({ hasText: MODEL }).waitFor();

    await tab(page, 'Промокоды').click();
    await page.getByLabel('Код (или префикс для пакета)').fill(PROMO);
    await page.getByRole('button', { name: 'Создать промокод' }).last().click();
    await page.getByTestId('admin-promo-row').filter({ hasText: PROMO }).waitFor();
  });

  it('root closes registration in the settings', async () => {
    const { page } = admin;
    await tab(page, 'Настройки').click();
    const registration = page.getByRole('region', { name: 'Регистрация' });
    const row = registration
      .locator('form')
      .filter({ has: page.getByLabel(/Регистрация новых пользователей/) });
    await row.getByLabel(/Регистрация новых пользователей/).selectOption('false');
    await row.getByRole('button', { name: 'Сохранить' }).click();
    await toast(page, 'Настройка RegisterEnabled сохранена').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-settings.png'), fullPage: true });
  });

  it('a customer sees the new price, redeems the code, and never sees the admin area', async () => {
    const { context, page } = await signedIn(customer);
    try {
      expect(
        await page
          .getByRole('navigation', { name: 'Разделы панели' })
          .getByRole('link', { name: 'Админ-панель' })
          .count(),
      ).toBe(0);
      await page.goto('/dashboard/price');
      await page.getByText(MODEL).first().waitFor();
      await page.goto('/dashboard/payment');
      await page.locator('input[name="promo_code"]').fill(PROMO);
      await page.getByRole('button', { name: 'Применить' }).click();
      await page.getByText(/Промокод применён/).waitFor();
      await page.goto('/dashboard/admin/channels');
      await page.getByRole('heading', { name: 'Страница не найдена' }).waitFor();
      const refused = await page.evaluate(async () => {
        const headers = { 'new-api-user': localStorage.getItem('tollgate.user_id') ?? '' };
        const calls = ['/api/channel/', '/api/user/', '/api/option/', '/api/log/'];
        return Promise.all(
          calls.map(async (path) => (await fetch(path, { credentials: 'include', headers })).status),
        );
      });
      expect(refused).toEqual([403, 403, 403, 403]);
    } finally {
      await context.close();
    }
  });

  it('a newcomer is offered no registration while it is closed, and the API refuses one', async () => {
    const context = await browser.newContext({
      baseURL: platform.url,
      locale: 'ru-RU',
      viewport: { width: 1366, height: 900 },
    });
    await context.addInitScript(() => localStorage.setItem('tollgate.cookie_consent', 'accepted'));
    const page = await context.newPage();
    try {
      await page.goto('/login?tab=register');
      // The page opens on sign-in, with no register tab and no registration form.
      await page.getByRole('button', { name: 'Войти' }).waitFor();
      expect(await page.getByRole('link', { name: 'Регистрация' }).count()).toBe(0);
      expect(await page.locator('input[name="agreeToTerms"]').count()).toBe(0);
      // A client that posts the form anyway is refused by auth.
      const name = `new${randomBytes(3).toString('hex')}`;
      const refused = await page.request.post('/api/user/register', {
        data: {
          username: name,
          email: `${name}@example.ru`,
          password: 'Newcomer-pass-1',
          agree_to_terms: true,
          agree_to_data_processing: true,
        },
      });
      expect(refused.status()).toBe(403);
      expect((await refused.json()) as unknown).toMatchObject({
        success: false,
        message: 'Регистрация новых пользователей сейчас закрыта',
      });
    } finally {
      await context.close();
    }
  });
});
