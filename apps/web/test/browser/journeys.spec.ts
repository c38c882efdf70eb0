import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { IPHONE_USER_AGENT, launchChromium } from './chromium';
import { buildPlatform, startEmbeddedPlatform, type EmbeddedPlatform } from './embedded-platform';
import { mailedCode } from './mail-outbox';

/** Screenshots go here so a person can look at them after a run. */
const SCREENSHOTS = process.env.BROWSER_SCREENSHOT_DIR ?? join(__dirname, '..', '..', 'dist-screenshots');

jest.setTimeout(240_000);

const user = {
  username: `browser${Date.now().toString(36)}`,
  email: `browser-${Date.now().toString(36)}@example.ru`,
  password: 'Secret-pass-42',
};

/** Root adds the channel that puts models on the price list; the journeys never sign in as root. */
const root = { username: `root${Date.now().toString(36)}`, password: 'Journey-root-pass-42' };

/** Models the price list, compare table and model page show: anyone sees a model a default-group channel serves. */
const LISTED_MODELS = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-4.1',
  'gpt-4o',
  'gpt-4o-mini',
  'o3',
  'o4-mini',
  'claude-opus-4-5',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'deepseek-chat',
  'deepseek-reasoner',
  'glm-4.6',
];

let platform: EmbeddedPlatform;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  buildPlatform();
  platform = await startEmbeddedPlatform(undefined, {
    TOLLGATE_ROOT_USERNAME: root.username,
    TOLLGATE_ROOT_PASSWORD: root.password,
  });
  await addDefaultChannel(platform.url);
  browser = await launchChromium();
});

/** As an operator would before opening: a channel for the default group (never called by the journeys). */
async function addDefaultChannel(url: string): Promise<void> {
  const login = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(root),
  });
  if (!login.ok) throw new Error(`root could not sign in: ${login.status} ${await login.text()}`);
  const { data } = (await login.json()) as { data: { id: number } };
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const created = await fetch(`${url}/api/channel/`, {
    method: 'POST',
    headers: { cookie, 'new-api-user': String(data.id), 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 1,
      name: 'journey price list',
      key: 'sk-journey-price-list',
      models: LISTED_MODELS.join(','),
      group: 'default',
    }),
  });
  if (!created.ok) throw new Error(`the channel was refused: ${created.status} ${await created.text()}`);
}

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function newContext(options: { mobile?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: platform.url,
    locale: 'ru-RU',
    ...(options.mobile
      ? {
          userAgent: IPHONE_USER_AGENT,
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
        }
      : { viewport: { width: 1366, height: 900 } }),
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  return context;
}

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first();

describe('desktop journey', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext();
    page = await context.newPage();
  });
  afterAll(() => context.close());

  it('shows the landing page and accepts cookies', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shot(page, 'desktop-landing');
    await page.getByRole('button', { name: 'Понятно' }).click();
    await expectHidden(page.getByRole('region', { name: 'Согласие на использование cookie' }));
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Понятно' }).count()).toBe(0);
  });

  it('registers with the mailed code and lands on the dashboard', async () => {
    await page.goto('/login');
    await page.locator('input[name="username"]').fill(user.username);
    await page.locator('input[name="email"]').fill(user.email);
    await page.getByRole('button', { name: 'Отправить код' }).click();
    const code = await mailedCode(platform.dataDir, user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('input[name="confirmPassword"]').fill(user.password);
    await page.locator('input[name="verification_code"]').fill(code);
    await page.locator('input[name="agreeToTerms"]').check();
    await page.locator('input[name="agreeToDataProcessing"]').check();
    await shot(page, 'desktop-register');
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('balance').waitFor();
    await shot(page, 'desktop-dashboard-home');
  });

  it('creates a key and copies it', async () => {
    await page.getByRole('link', { name: 'API-ключи' }).click();
    await page.getByRole('button', { name: 'Создать ключ' }).click();
    // The limits' inputs stand level although 'Одновременных запросов' wraps onto two lines.
    const limitTops = await Promise.all(
      ['rpm_limit', 'tpm_limit', 'concurrency_limit'].map(async (name) =>
        Math.round((await page.locator(`input[name="${name}"]`).boundingBox())?.y ?? -1),
      ),
    );
    expect(new Set(limitTops).size).toBe(1);
    await page.locator('input[name="name"]').fill('browser-key');
    await page.getByRole('dialog').getByRole('button', { name: 'Создать' }).click();
    await toast(page, 'Ключ создан').waitFor();
    const row = page.getByTestId('token-row').filter({ hasText: 'browser-key' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Копировать' }).click();
    await toast(page, 'Ключ скопирован').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^sk-[A-Za-z0-9]{20,}$/);
    await shot(page, 'desktop-tokens');
  });

  it('tops up with the test provider and sees the balance', async () => {
    await page.getByRole('link', { name: 'Пополнить', exact: true }).click();
    await page.getByRole('radio', { name: /Тестовый платёж/ }).check();
    await page.locator('input[name="amount"]').fill('1000');
    await page.locator('input[name="agreement"]').check();
    await page.getByRole('button', { name: 'Перейти к оплате' }).click();
    await toast(page, 'Баланс пополнен').waitFor();
    await page.getByTestId('payment-row').first().waitFor();
    await expectText(page.getByTestId('balance'), (text) => !/^0,00/.test(text));
    await shot(page, 'desktop-payment');
  });

  it('shows the activity screen', async () => {
    await page.getByRole('link', { name: 'Активность' }).click();
    await page.getByRole('heading', { name: 'Активность' }).waitFor();
    await page.getByRole('heading', { name: 'Записи' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await shot(page, 'desktop-activity');
  });

  it('switches the language to English and back', async () => {
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    await shot(page, 'desktop-activity-en');
    await page.getByRole('button', { name: 'Переключить на русский' }).click();
    await page.getByRole('heading', { name: 'Активность' }).waitFor();
  });

  it("shows the linked accounts in settings and admin's changelog", async () => {
    await page.getByRole('link', { name: 'Настройки' }).click();
    await page.getByRole('heading', { name: 'Связанные аккаунты' }).waitFor();
    await shot(page, 'desktop-settings');
    await page.getByRole('link', { name: 'Изменения' }).click();
    await page.getByRole('heading', { name: 'Список изменений' }).waitFor();
    await page.getByText('Записей пока нет.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await shot(page, 'desktop-changelog');
  });

  it('fits a narrow desktop window: the sidebar becomes a rail of icons, named and with tooltips', async () => {
    await page.setViewportSize({ width: 560, height: 900 });
    try {
      await page.goto('/dashboard/tokens');
      await page.getByRole('button', { name: 'Создать ключ' }).waitFor();
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
        sidebar: document.querySelector('aside')?.getBoundingClientRect().width ?? 0,
      }));
      expect(widths.page).toBeLessThanOrEqual(widths.window);
      expect(widths.sidebar).toBeLessThan(100);
      // The name is for screen readers only (sr-only: 1 px); the tooltip says it to the eye.
      const labelWidth = async () =>
        (await page.getByRole('navigation').getByText('Активность').boundingBox())?.width ?? 0;
      expect(await labelWidth()).toBeLessThanOrEqual(1);
      const activity = page.getByRole('navigation').getByRole('link', { name: 'Активность' });
      await activity.hover();
      await page.getByRole('tooltip', { name: 'Активность' }).waitFor();
      await shot(page, 'desktop-narrow-tokens');
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
    }
    // Wide again: the names stand beside the icons. The layout leaves rail mode on the media query's
    // change event, re-mounting each link without its tooltip: a box read before that render lands can
    // be the old, detached link's (none). Wait for the wide label rather than read it once.
    const wideLabelWidth = async () =>
      (await page.getByRole('navigation').getByText('Активность').boundingBox())?.width ?? 0;
    for (let tries = 0; tries < 50 && (await wideLabelWidth()) <= 20; tries++) await page.waitForTimeout(100);
    expect(await wideLabelWidth()).toBeGreaterThan(20);
  });

  it('signs out to the landing page', async () => {
    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });
});

describe('mobile journey', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext({ mobile: true });
    page = await context.newPage();
  });
  afterAll(() => context.close());

  it('uses the mobile route set with a bottom bar', async () => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Нижняя навигация' }).waitFor();
    await page.getByRole('button', { name: 'Понятно' }).click();
    await shot(page, 'mobile-landing');
  });

  it('signs in and sees the balance, the keys and the activity', async () => {
    await page.goto('/login?tab=login');
    await page.locator('input[name="username"]').fill(user.username);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('balance').waitFor();
    await shot(page, 'mobile-dashboard-home');
    const bar = page.getByRole('navigation', { name: 'Нижняя навигация' });
    await bar.getByRole('link', { name: 'API-ключи' }).click();
    await page.getByTestId('token-row').filter({ hasText: 'browser-key' }).waitFor();
    await shot(page, 'mobile-tokens');
    await bar.getByRole('link', { name: 'Активность' }).click();
    await page.getByRole('heading', { name: 'Записи' }).waitFor();
    await shot(page, 'mobile-activity');
    await bar.getByRole('link', { name: 'Пополнить' }).click();
    await page.getByRole('button', { name: 'Перейти к оплате' }).waitFor();
    await shot(page, 'mobile-payment');
  });

  it('fits the settings and the price list to a 390 px screen', async () => {
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Приглашения' }).waitFor();
    const cardsRight = await page.evaluate(() =>
      Math.max(...[...document.querySelectorAll('section')].map((s) => s.getBoundingClientRect().right)),
    );
    expect(cardsRight).toBeLessThanOrEqual(390);
    await page.goto('/price');
    const price = page.getByTestId('price-row').first().getByText(/₽/).first();
    await price.waitFor({ state: 'visible' });
    expect(await price.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
  });

  // The phone at 360 and 390 px (the journey's own width is 390 × 844).
  const PHONE_WIDTHS = [360, 390];

  it('keeps every bottom-bar label whole, on one line and apart from its neighbours', async () => {
    for (const width of PHONE_WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      for (const path of ['/price', '/dashboard']) {
        await page.goto(path);
        const bar = page.getByRole('navigation', { name: 'Нижняя навигация' });
        await bar.getByRole('link').first().waitFor();
        const labels = await bar.getByRole('link').evaluateAll((links) =>
          links.map((link) => {
            const text = [...link.childNodes].find((node) => node.nodeType === Node.TEXT_NODE)!;
            const range = document.createRange();
            range.selectNodeContents(text);
            const box = range.getBoundingClientRect();
            const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
            return { text: text.textContent, left: box.left, right: box.right, lines };
          }),
        );
        for (const [i, label] of labels.entries()) {
          expect(label).toEqual({ ...label, lines: 1 });
          expect(label.left).toBeGreaterThanOrEqual(0);
          expect(label.right).toBeLessThanOrEqual(width);
          // At least twice a word space from the next label (11 px type); equal cells left 0–0.7 px.
          if (i > 0) expect(label.left - labels[i - 1].right).toBeGreaterThanOrEqual(6);
        }
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('keeps model names whole on the price list, and the compare table scrolls in its box, not the page', async () => {
    for (const width of PHONE_WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/price');
      await page.getByTestId('price-row').first().waitFor();
      const brokenNames = await page
        .getByTestId('price-row')
        .getByRole('link')
        .evaluateAll((links) =>
          links
            .filter((link) => {
              const range = document.createRange();
              range.selectNodeContents(link);
              return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
            })
            .map((link) => link.textContent),
        );
      expect(brokenNames).toEqual([]);
      const tableOverflow = await page.evaluate(() => {
        const box = document.querySelector('table')!.parentElement!;
        return box.scrollWidth - box.clientWidth;
      });
      expect(tableOverflow).toBeLessThanOrEqual(0);
      await page.goto('/compare');
      await page.locator('table a').first().waitFor();
      const pageScrolled = await page.evaluate(() => {
        const main = document.querySelector('main')!;
        window.scrollTo(200, 0);
        main.scrollLeft = 200;
        const scrolled = [window.scrollX, main.scrollLeft];
        window.scrollTo(0, 0);
        main.scrollLeft = 0;
        return scrolled;
      });
      expect(pageScrolled).toEqual([0, 0]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('gives links and the dialog close button a target of 24 × 24 px at least (WCAG 2.2)', async () => {
    const tooSmall = (locator: ReturnType<Page['locator']>) =>
      locator.evaluateAll((elements) =>
        elements
          .map((el) => ({ text: el.textContent?.trim(), ...el.getBoundingClientRect().toJSON() }))
          .filter((box) => box.width < 24 || box.height < 24)
          .map((box) => `${box.text} ${box.width}×${box.height}`),
      );
    await page.goto('/price');
    await page.getByTestId('price-row').first().waitFor();
    expect(await tooSmall(page.getByTestId('price-row').getByRole('link'))).toEqual([]);
    await page.goto('/compare');
    await page.locator('table a').first().waitFor();
    expect(await tooSmall(page.locator('table a'))).toEqual([]);
    await page.goto('/model/gpt-4o-mini');
    await page.getByRole('link', { name: '← Все цены' }).waitFor();
    expect(await tooSmall(page.getByRole('link', { name: '← Все цены' }))).toEqual([]);
    await page.goto('/');
    await page.locator('footer a').first().waitFor();
    expect(await tooSmall(page.locator('footer a'))).toEqual([]);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Быстрый старт' }).waitFor();
    expect(await tooSmall(page.locator('#quick-start-title ~ ol a'))).toEqual([]);
    await page.goto('/dashboard/tokens');
    await page.getByRole('button', { name: 'Создать ключ' }).click();
    const close = page.getByRole('dialog').getByRole('button', { name: 'Закрыть' });
    await close.waitFor();
    expect(await tooSmall(close)).toEqual([]);
    await close.click();
  });

  it('keeps a signed-in phone user away from /login', async () => {
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
  });
});

async function expectHidden(locator: ReturnType<Page['locator']>): Promise<void> {
  await locator.waitFor({ state: 'hidden' });
}

async function expectText(
  locator: ReturnType<Page['locator']>,
  accept: (text: string) => boolean,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? '';
    if (accept(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`unexpected text: ${text}`);
}
