import { request } from 'undici';
import type { FakeListenOptions, FakeReply } from './fake-http';

/** How the fake provider's payment page is served and where its notifications go. */
export interface FakeCheckoutOptions extends FakeListenOptions {
  /**
   * Where YooKassa posts its notifications (set in the shop's settings, not per payment). The
   * crypto provider posts to the invoice's url_callback and ignores this.
   */
  notificationUrl?: string;
  /** How long the "notify later" buttons wait before notifying (default 5 s). */
  lateNotificationMs?: number;
  /** Where delivery failures and the shop's answers are reported (default: nowhere). */
  log?: (line: string) => void;
}

/** One button of the payment page: what the payer does and how the provider tells the shop. */
export interface CheckoutAction<Status extends string> {
  /** The path segment the button posts to. */
  name: string;
  label: string;
  status: Status;
  /** How many notifications the shop gets (2 = a provider retrying one the shop already took). */
  notifications: 0 | 1 | 2;
  late?: boolean;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

/** The provider's payment page: what is paid, and one button per way the payment can end. */
export function checkoutPage(
  title: string,
  details: string,
  basePath: string,
  actions: readonly CheckoutAction<string>[],
): FakeReply {
  const buttons = actions
    .map(
      (action) =>
        `<form method="post" action="${escapeHtml(`${basePath}/${action.name}`)}">` +
        `<button type="submit" name="action" value="${escapeHtml(action.name)}">${escapeHtml(action.label)}</button></form>`,
    )
    .join('\n');
  return {
    status: 200,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui;margin:2rem auto;max-width:30rem;padding:0 1rem}form{margin:.5rem 0}button{width:100%;padding:.6rem;font:inherit}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(details)}</p>
<p><small>A fake provider for local testing: nothing is charged.</small></p>
${buttons}
</body></html>`,
  };
}

/** POSTs one notification to the shop, as the provider would; the answer is only reported. */
export async function deliverNotification(
  url: string,
  body: unknown,
  log: (line: string) => void,
): Promise<void> {
  try {
    const answer = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    log(`notification to ${url}: HTTP ${answer.statusCode} ${await answer.body.text()}`);
  } catch (error) {
    log(`notification to ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Sends `count` notifications one after another, at once or after `delayMs` (not awaited then). */
export async function notifyShop(
  url: string | undefined,
  body: () => unknown,
  count: number,
  delayMs: number | undefined,
  log: (line: string) => void,
): Promise<void> {
  if (!url || count === 0) return;
  const send = async () => {
    for (let sent = 0; sent < count; sent++) await deliverNotification(url, body(), log);
  };
  if (delayMs === undefined) await send();
  else setTimeout(() => void send(), delayMs).unref();
}
