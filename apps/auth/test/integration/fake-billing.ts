import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ACCOUNT_SET_QUOTA_CALL,
  accountSetQuotaRequest,
  TOPICS,
  type AccountSetQuotaRequest,
} from '@tollgate/contracts';
import type { EventBus } from '@tollgate/events';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from '@tollgate/platform';

/** How long after its answer the fake publishes billing.balance (billing's outbox relay runs after the commit). */
const OUTBOX_DELAY_MS = 100;

export interface SetQuotaCall {
  userId: number;
  request: AccountSetQuotaRequest;
}

/**
 * Billing's side of ACCOUNT_SET_QUOTA_CALL as the test needs it: checks the service token, keeps
 * each user's balance, publishes it on billing.balance like billing (a moment after answering), and can
 * be told to fail.
 */
export class FakeBilling {
  readonly calls: SetQuotaCall[] = [];
  failing = false;
  private readonly balances = new Map<number, number>();
  private readonly publishing = new Set<Promise<unknown>>();
  private server?: Server;
  url = '';

  constructor(
    private readonly secret: string,
    private readonly bus: EventBus,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void this.answer(
          req.url ?? '',
          req.headers[SERVICE_TOKEN_HEADER],
          Buffer.concat(chunks).toString('utf8'),
        ).then(({ status, body }) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.publishing]);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private publishLater(events: Parameters<EventBus['publish']>[0]): void {
    const published = new Promise((resolve) => setTimeout(resolve, OUTBOX_DELAY_MS)).then(() =>
      this.bus.publish(events),
    );
    this.publishing.add(published);
    void published.finally(() => this.publishing.delete(published));
  }

  private async answer(
    url: string,
    token: string | string[] | undefined,
    text: string,
  ): Promise<{ status: number; body: unknown }> {
    if (this.failing) return { status: 503, body: { success: false, message: 'down' } };
    try {
      await verifyServiceToken(String(token), this.secret, ACCOUNT_SET_QUOTA_CALL.audience);
    } catch {
      return { status: 401, body: { success: false, message: 'A valid service token is required' } };
    }
    const userId = Number(/^\/internal\/accounts\/(\d+)\/quota$/.exec(url)?.[1]);
    const request = accountSetQuotaRequest.parse(JSON.parse(text));
    this.calls.push({ userId, request });
    const delta = request.quota - (this.balances.get(userId) ?? 0);
    this.balances.set(userId, request.quota);
    // Like billing's outbox relay: billing.balance goes out after the answer, not before it.
    this.publishLater([
      {
        topic: TOPICS.billingBalance.name,
        key: String(userId),
        value: {
          v: 1,
          user_id: userId,
          quota: request.quota,
          used_quota: 0,
          request_count: 0,
          aff_quota: 0,
          aff_history_quota: 0,
          version: this.calls.length,
          updated_at: Math.floor(Date.now() / 1000),
        },
      },
    ]);
    return {
      status: 200,
      body: { success: true, message: '', data: { user_id: userId, quota: request.quota, delta } },
    };
  }
}
