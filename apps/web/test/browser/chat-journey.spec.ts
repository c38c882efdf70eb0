import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { IPHONE_USER_AGENT, launchChromium } from './chromium';
import { buildPlatform, startEmbeddedPlatform, type EmbeddedPlatform } from './embedded-platform';
import { startFakeUpstreamProcess, type FakeUpstreamProcess } from './fake-upstream-process';

/** Screenshots go here so a person can look at them after a run. */
const SCREENSHOTS = process.env.BROWSER_SCREENSHOT_DIR ?? join(__dirname, '..', '..', 'dist-screenshots');
const MODEL = 'journey-gpt';
const root = {
  username: `root${randomBytes(3).toString('hex')}`,
  password: `Root-pass-${randomBytes(4).toString('hex')}`,
};

jest.setTimeout(240_000);

let platform: EmbeddedPlatform;
let upstream: FakeUpstreamProcess;
let browser: Browser;

/** Root's API calls from the test (the browser signs in on its own). */
async function asRoot(): Promise<(path: string, method: string, body: unknown) => Promise<void>> {
  const login = await fetch(`${platform.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(root),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const id = ((await login.json()) as { data: { id: number } }).data.id;
  return async (path, method, body) => {
    const res = await fetch(`${platform.url}${path}`, {
      method,
      headers: { cookie, 'new-api-user': String(id), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  };
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  buildPlatform();
  // 60 chunks 60 ms apart: an answer streams for about 4 s, long enough to watch and to stop.
  upstream = await startFakeUpstreamProcess([
    '--chunks',
    '60',
    '--chunk-ms',
    '60',
    '--completion-tokens',
    '60',
  ]);
  platform = await startEmbeddedPlatform(120_000, {
    TOLLGATE_ROOT_USERNAME: root.username,
    TOLLGATE_ROOT_PASSWORD: root.password,
  });
  const call = await asRoot();
  await call(`/api/pricing/models/${MODEL}`, 'PUT', {
    provider: 'openai',
    input_price: '0.15',
    output_price: '0.6',
    cached_input_price: '0.075',
    context_window: 128_000,
    intelligence: 3,
    speed: 4,
    sota: false,
    deprecated: false,
  });
  await call('/api/channel/', 'POST', {
    type: 1,
    name: 'journey upstream',
    key: 'sk-fake-openai-key',
    base_url: upstream.url,
    models: MODEL,
    model_mapping: JSON.stringify({ [MODEL]: 'gpt-4o-mini' }),
    group: 'default',
  });
  const self = await fetch(`${platform.url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(root),
  });
  const rootId = ((await self.json()) as { data: { id: number } }).data.id;
  await call('/api/user/', 'PUT', { id: rootId, quota: 100_000_000 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await upstream?.stop();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function signedIn(mobile: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: platform.url,
    locale: 'ru-RU',
    ...(mobile
      ? {
          userAgent: IPHONE_USER_AGENT,
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
        }
      : { viewport: { width: 1366, height: 900 } }),
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
  // The cookie banner was answered on another visit (journeys.spec.ts covers it).
  await context.addInitScript(() => localStorage.setItem('tollgate.cookie_consent', 'accepted'));
  const page = await context.newPage();
  await page.goto('/login?tab=login');
  await page.locator('input[name="username"]').fill(root.username);
  await page.locator('input[name="password"]').fill(root.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL('**/dashboard');
  return { context, page };
}

const answers = (page: Page) => page.getByTestId('assistant-message');

describe('chat journey on a desktop', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => ({ context, page } = await signedIn(false)));
  afterAll(() => context.close());

  it('opens a new chat from the sidebar and watches an answer stream in', async () => {
    await page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Чат' }).click();
    await page.waitForURL('**/dashboard/chat');
    await page.getByRole('button', { name: 'Новый чат' }).first().click();
    await page.waitForURL(/\/dashboard\/chat\/\d+$/);
    await page.getByRole('combobox', { name: 'Модель' }).filter({ hasText: MODEL }).waitFor();
    await page.getByRole('textbox', { name: 'Сообщение' }).fill('Расскажи историю');
    await page.keyboard.press('Enter');
    // While streaming the stop button shows and the answer grows.
    await page.getByRole('button', { name: 'Остановить' }).waitFor();
    await shot(page, 'chat-streaming');
    await page.getByRole('button', { name: 'Сгенерировать заново' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('answer-cost').first().waitFor();
    // The title comes from the first exchange.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="chat-title"]')?.textContent?.trim() !== 'Новый чат',
    );
    await shot(page, 'chat-answered');
  });

  it('keeps the history after a reload', async () => {
    await page.reload();
    await page.getByText('Расскажи историю').waitFor();
    expect(await answers(page).count()).toBe(1);
  });

  it('stops a long answer and keeps what was generated', async () => {
    await page.getByRole('textbox', { name: 'Сообщение' }).fill('Ещё одну, подлиннее');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Остановить' }).waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelectorAll('[data-testid="assistant-message"]')[1]?.textContent?.length ?? 0) > 20,
    );
    await page.getByRole('button', { name: 'Остановить' }).click();
    await page.getByText('остановлено').waitFor({ timeout: 15_000 });
    expect(await answers(page).count()).toBe(2);
    // Its cost comes from billing's record of the call, without a reload.
    await answers(page).nth(1).getByTestId('answer-cost').waitFor({ timeout: 15_000 });
  });

  it('regenerates the last answer in place', async () => {
    await page.getByRole('button', { name: 'Сгенерировать заново' }).click();
    await page.getByRole('button', { name: 'Остановить' }).waitFor();
    await page.getByRole('button', { name: 'Сгенерировать заново' }).waitFor({ timeout: 30_000 });
    expect(await answers(page).count()).toBe(2);
    await expect(page.getByText('остановлено').count()).resolves.toBe(0);
  });

  it('tells an upstream rate limit in Russian and answers the kept question once it passes', async () => {
    const setUpstream = (options: object) =>
      fetch(`${upstream.url}/__fake/options`, { method: 'POST', body: JSON.stringify(options) });
    await setUpstream({ failRate: 1, failStatus: 429 });
    try {
      await page.getByRole('textbox', { name: 'Сообщение' }).fill('А если много запросов?');
      await page.keyboard.press('Enter');
      await page.getByText('Подождите немного и попробуйте снова.').waitFor();
      await toastClearOf(page.getByRole('textbox', { name: 'Сообщение' }));
    } finally {
      await setUpstream({ failRate: 0 });
    }
    // Relay's English words stay out of the Russian interface.
    expect(await page.getByText(/rate limiting/).count()).toBe(0);
    await page.getByRole('button', { name: 'Получить ответ' }).click();
    await page.getByRole('button', { name: 'Сгенерировать заново' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-message').filter({ hasText: 'А если много запросов?' }).count()).toBe(
      1,
    );
  });

  it('deletes the chat after confirming', async () => {
    const title = (await page.getByTestId('chat-title').textContent())!.trim();
    await page.getByRole('button', { name: `Удалить «${title}»` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Удалить' }).click();
    await page.waitForURL('**/dashboard/chat');
    await page.getByText('Чатов пока нет').waitFor();
  });
});

/** Waits (while the toast slides in) until the newest toast ends above `box`: it covers neither the box nor its button. */
async function toastClearOf(box: Locator): Promise<void> {
  const toast = box.page().locator('[data-sonner-toast]').first();
  let last = '';
  for (let tries = 0; tries < 20; tries++) {
    const [toastBox, messageBox] = await Promise.all([toast.boundingBox(), box.boundingBox()]);
    if (toastBox && messageBox && toastBox.y + toastBox.height <= messageBox.y) return;
    last = JSON.stringify({ toastBox, messageBox });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the toast covers the message box: ${last}`);
}

describe('chat journey on a phone', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => ({ context, page } = await signedIn(true)));
  afterAll(() => context.close());

  it('reaches the chat from the bottom bar, sends a message and sees the answer', async () => {
    await page
      .getByRole('navigation', { name: 'Нижняя навигация' })
      .getByRole('link', { name: 'Чат' })
      .click();
    await page.waitForURL('**/dashboard/chat');
    await page.getByRole('button', { name: 'Новый чат' }).first().click();
    await page.waitForURL(/\/dashboard\/chat\/\d+$/);
    // A phone's keyboard has no Shift+Enter: Enter starts a new line there, and the button sends.
    const box = page.getByRole('textbox', { name: 'Сообщение' });
    await box.fill('Привет');
    await box.press('Enter');
    await box.pressSequentially('с телефона');
    expect(await box.inputValue()).toBe('Привет\nс телефона');
    await page.getByRole('button', { name: 'Отправить' }).click();
    await page.getByRole('button', { name: 'Сгенерировать заново' }).waitFor({ timeout: 30_000 });
    // The title keeps a row of its own: the model picker and the settings button wrap below it.
    const widths = await page
      .getByTestId('chat-title')
      .evaluate((title) => [title.getBoundingClientRect().width, title.closest('header')!.clientWidth]);
    expect(widths[0]!).toBeGreaterThan(widths[1]! * 0.6);
    await shot(page, 'mobile-chat');
    await page.getByRole('link', { name: 'К списку чатов' }).click();
    await page.waitForURL('**/dashboard/chat');
    await page.getByRole('navigation', { name: 'Чаты' }).getByRole('link').first().waitFor();
  });
});
