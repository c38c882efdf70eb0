// The mixed load: /v1 calls of each client's profile (client-profiles.ts), chat messages, top-ups paid
// at the fake YooKassa with and without a promo code. Every client writes down what it saw; nothing
// here judges.
import { randomUUID } from 'node:crypto';
import type { FakeYookassa } from '@tollgate/testing';
import type { CallKind, CallRecord, TopUpRecord } from './checks';
import { isWholeAnswer, MODEL, planCall } from './client-profiles';
import { PROMO_CODE, type Customer } from './seed';
import type { WebSession } from './web-session';

export interface LoadRecords {
  calls: CallRecord[];
  topUps: TopUpRecord[];
  /** Problems of the load itself (not of the platform): a chat that could not be opened, … */
  notes: string[];
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends one request with the client's own request id and reads the whole answer. `complete` needs
 * status 200 and `isWhole(body)`; a timeout or a reset counts as whatever had arrived by then.
 */
async function observedCall(
  kind: CallKind,
  shape: string,
  client: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<{ record: CallRecord; received: string }> {
  const requestId = `chaos-${randomUUID()}`;
  const startedAt = Date.now();
  let status = 0;
  let received = '';
  let error: string | undefined;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...init.headers, 'x-request-id': requestId },
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.status;
    const decoder = new TextDecoder();
    for await (const chunk of res.body ?? [])
      received += decoder.decode(chunk as Uint8Array, { stream: true });
  } catch (e) {
    error =
      (e as Error).name === 'TimeoutError'
        ? 'timeout'
        : (((e as Error).cause as Error)?.message ?? (e as Error).message);
  }
  const complete = status === 200 && error === undefined && isWholeAnswer(kind, received);
  const record: CallRecord = {
    kind,
    shape,
    client,
    requestId,
    startedAt,
    endedAt: Date.now(),
    status,
    // An error status's body is a refusal, not part of an answer.
    anyByte: status === 200 && received.length > 0,
    complete,
    ...(error ? { error } : complete || status === 200 ? {} : { error: received.slice(0, 160) }),
  };
  return { record, received };
}

export class LoadDriver {
  readonly records: LoadRecords = { calls: [], topUps: [], notes: [] };
  private stopped = false;
  /** Set once every client loop has ended: no top-up can be created, and queue its notifications, after. */
  private clientsDone = false;
  private drainDeadline = Infinity;
  private readonly clientLoops: Promise<void>[] = [];
  private notifications: Promise<void> = Promise.resolve();
  /** Payment notifications the "provider" still has to deliver: YooKassa retries until it gets a 200. */
  private readonly undelivered: { body: unknown; paymentId: number }[] = [];

  constructor(
    private readonly deps: {
      gatewayUrl: string;
      customers: Customer[];
      chatUser: Pick<WebSession, 'call' | 'headers' | 'refresh'>;
      yookassa: Pick<FakeYookassa, 'setStatus' | 'notification'>;
      callTimeoutMs: number;
      /** Each customer tops up this often (default 4 s). */
      topUpEveryMs?: number;
    },
  ) {}

  start(): void {
    for (const customer of this.deps.customers) {
      this.clientLoops.push(this.apiLoop(customer));
      // The tight-balance client is to reach zero: it never tops up.
      if (customer.profile !== 'tight') this.clientLoops.push(this.topUpLoop(customer));
    }
    this.clientLoops.push(this.chatLoop());
    this.notifications = this.notificationLoop();
  }

  /**
   * Stops the clients; once they have all ended (a top-up created meanwhile is paid and queued too),
   * the provider keeps delivering its notifications for up to `drainMs`.
   */
  async stop(drainMs: number): Promise<void> {
    this.stopped = true;
    await Promise.all(this.clientLoops);
    this.drainDeadline = Date.now() + drainMs;
    this.clientsDone = true;
    await this.notifications;
    if (this.undelivered.length)
      this.records.notes.push(`${this.undelivered.length} payment notification(s) never accepted`);
  }

  get pendingNotifications(): number {
    return this.undelivered.length;
  }

  private async apiLoop(customer: Customer): Promise<void> {
    let n = 0;
    while (!this.stopped) {
      const call = planCall(customer.profile, customer.apiKey, n++, customer.name);
      const { record } = await observedCall(
        call.kind,
        call.shape,
        customer.name,
        `${this.deps.gatewayUrl}${call.path}`,
        { headers: call.headers, body: JSON.stringify(call.body) },
        this.deps.callTimeoutMs,
      );
      this.records.calls.push(record);
      // Refused for money: a person would not retry at once either.
      await pause(record.status === 402 ? 1000 : 150);
    }
  }

  private async chatLoop(): Promise<void> {
    const user = this.deps.chatUser;
    let chatId: number | undefined;
    let sent = 0;
    while (!this.stopped) {
      if (chatId === undefined || sent >= 10) {
        try {
          chatId = (await user.call<{ id: number }>('POST', '/api/chat', { model: MODEL })).id;
          sent = 0;
        } catch (error) {
          this.records.notes.push(`chat not opened: ${(error as Error).message}`);
          await pause(1000);
          continue;
        }
      }
      sent++;
      const { record, received } = await observedCall(
        'chat',
        'chat message',
        'chat',
        `${this.deps.gatewayUrl}/api/chat/${chatId}/messages`,
        { headers: user.headers(), body: JSON.stringify({ content: `chaos chat ${sent}` }) },
        this.deps.callTimeoutMs,
      );
      const answer = /"assistant_message_id":(\d+)/.exec(received);
      this.records.calls.push(answer ? { ...record, chargeId: `chat-${chatId}-${answer[1]}` } : record);
      // The session was lost (a restarted Redis): sign in again, as the person would.
      if (record.status === 401) await user.refresh().catch(() => undefined);
      await pause(300);
    }
  }

  /**
   * Every few seconds a customer tops up 100 RUB, every other time with the promo code; the payer
   * pays four payments in five at the provider and abandons the fifth (canceled). The provider's
   * notification is queued for delivery; a failed creation is a failed checkout, nothing more.
   */
  private async topUpLoop(customer: Customer): Promise<void> {
    let n = 0;
    while (!this.stopped) {
      await pause(this.deps.topUpEveryMs ?? 4000);
      if (this.stopped) break;
      n++;
      const promoCode = n % 2 === 0 ? PROMO_CODE : null;
      let created: { id: number; quota: number; bonus_quota: number; pay_url: string };
      try {
        created = await customer.session.call('POST', '/api/user/payment', {
          amount: '100',
          promo_code: promoCode ?? '',
          provider: 'yookassa',
          email: `${customer.name}@chaos.test`,
        });
      } catch (error) {
        this.records.notes.push(`top-up not created: ${(error as Error).message.slice(0, 160)}`);
        continue;
      }
      const providerId = new URL(created.pay_url).pathname.split('/').pop()!;
      const paid = n % 5 !== 0;
      this.deps.yookassa.setStatus(providerId, paid ? 'succeeded' : 'canceled');
      this.records.topUps.push({
        paymentId: created.id,
        userId: customer.userId,
        promoCode,
        expectedQuota: created.quota + created.bonus_quota,
        paidAtProvider: paid,
      });
      const body = this.deps.yookassa.notification(
        paid ? 'payment.succeeded' : 'payment.canceled',
        providerId,
      );
      // YooKassa may deliver twice: the second delivery must change nothing.
      this.undelivered.push({ body, paymentId: created.id }, { body, paymentId: created.id });
    }
  }

  private async notificationLoop(): Promise<void> {
    while (!this.clientsDone || (this.undelivered.length > 0 && Date.now() < this.drainDeadline)) {
      const next = this.undelivered[0];
      if (!next) {
        await pause(200);
        continue;
      }
      try {
        const res = await fetch(`${this.deps.gatewayUrl}/api/user/payment/webhook/yookassa`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(next.body),
          signal: AbortSignal.timeout(10_000),
        });
        await res.text();
        if (res.status === 200) {
          this.undelivered.shift();
          continue;
        }
      } catch {
        // Unreachable: retried, as the provider would.
      }
      await pause(1000);
    }
  }
}
