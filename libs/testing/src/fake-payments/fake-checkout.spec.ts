import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startFakeCrypto } from './fake-crypto.server';
import { startFakeYookassa } from './fake-yookassa.server';

/** A shop's webhook endpoint that keeps every body it is sent. */
async function startShop(): Promise<{ url: string; bodies: unknown[]; server: Server }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, bodies, server };
}

describe('the fake providers’ payment pages', () => {
  it('YooKassa: paying with a repeated notification notifies the shop twice and sends the payer back', async () => {
    const shop = await startShop();
    const yookassa = await startFakeYookassa(undefined, { notificationUrl: shop.url });
    try {
      const auth = `Basic ${Buffer.from(`${yookassa.shopId}:${yookassa.secretKey}`).toString('base64')}`;
      const created = await request(`${yookassa.apiUrl}/payments`, {
        method: 'POST',
        headers: { authorization: auth, 'idempotence-key': 'k1', 'content-type': 'application/json' },
        body: JSON.stringify({
          amount: { value: '1000.00', currency: 'RUB' },
          confirmation: { type: 'redirect', return_url: 'http://shop.test/back' },
          receipt: { customer: { email: 'payer@example.com' } },
        }),
      });
      const payment = (await created.body.json()) as {
        id: string;
        confirmation: { confirmation_url: string };
      };
      const page = await request(payment.confirmation.confirmation_url);
      expect(await page.body.text()).toContain('Pay (notification sent twice)');

      const paid = await request(`${payment.confirmation.confirmation_url}/pay-notify-twice`, {
        method: 'POST',
      });
      await paid.body.dump();
      expect(paid.statusCode).toBe(303);
      expect(paid.headers['location']).toBe('http://shop.test/back');
      expect(yookassa.payments()[0]!.status).toBe('succeeded');
      expect(shop.bodies).toEqual([
        expect.objectContaining({
          event: 'payment.succeeded',
          object: expect.objectContaining({ id: payment.id }),
        }),
        expect.objectContaining({ event: 'payment.succeeded' }),
      ]);
    } finally {
      await yookassa.close();
      shop.server.close();
    }
  });

  it('crypto: an underpaid invoice posts a signed wrong_amount webhook to its callback and returns the payer', async () => {
    const shop = await startShop();
    const crypto = await startFakeCrypto();
    try {
      const body = JSON.stringify({
        amount: '700.00',
        currency: 'RUB',
        order_id: 'tollgate-6',
        url_callback: shop.url,
        url_return: 'http://shop.test/back',
        url_success: 'http://shop.test/paid',
      });
      const sign = createHash('md5')
        .update(Buffer.from(body).toString('base64') + crypto.apiKey)
        .digest('hex');
      const created = await request(`${crypto.apiUrl}/payment`, {
        method: 'POST',
        headers: { merchant: crypto.merchantId, sign, 'content-type': 'application/json' },
        body,
      });
      const invoice = (await created.body.json()) as { result: { uuid: string; url: string } };

      const underpaid = await request(`${invoice.result.url}/wrong-amount`, { method: 'POST' });
      await underpaid.body.dump();
      expect(underpaid.headers['location']).toBe('http://shop.test/back');
      const [webhook] = shop.bodies as Record<string, unknown>[];
      expect(webhook).toMatchObject({ uuid: invoice.result.uuid, status: 'wrong_amount', amount: '700.00' });
      expect(crypto.sign(webhook!)).toEqual(webhook);
    } finally {
      await crypto.close();
      shop.server.close();
    }
  });
});
