import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAYMENT_METHODS_CALL } from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from '@tollgate/platform';

export interface StandInBilling {
  url: string;
  /** The HTTP status of every answer given, in order. */
  asked: number[];
  close: () => Promise<void>;
}

/**
 * Billing's PAYMENT_METHODS_CALL as a small server: checks the service token, answers `methods`
 * (after `delayMs`, as a billing still starting would).
 */
export async function standInBilling(
  secret: string,
  methods: { yookassa: boolean; crypto: boolean },
  delayMs = 0,
): Promise<StandInBilling> {
  const asked: number[] = [];
  const server: Server = createServer((request, response) => {
    void verifyServiceToken(
      String(request.headers[SERVICE_TOKEN_HEADER] ?? ''),
      secret,
      PAYMENT_METHODS_CALL.audience,
    )
      .then(
        () => (request.url === PAYMENT_METHODS_CALL.path ? 200 : 404),
        () => 401,
      )
      .then(async (status) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        asked.push(status);
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(status === 200 ? { success: true, message: '', data: methods } : { success: false }),
        );
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asked, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
