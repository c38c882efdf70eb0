import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Env, RunningService } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAuth } from '../../src';
import { call } from './auth-client';
import { codeIn, recipientOf } from './mail-reader';

jest.setTimeout(60_000);

/** An SMTP sink: accepts every message without authentication or TLS and keeps it. */
async function startSmtpSink(): Promise<{ port: number; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(INFRASTRUCTURES)('verification mail over SMTP on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let auth: RunningService;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'auth-smtp-it');
    sink = await startSmtpSink();
    const database = await infra.createDatabase();
    const env: Env = {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'error',
      DATABASE_URL: database.url,
      TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
      TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Tollgate <no-reply@tollgate.test>',
    };
    auth = await startAuth(env, infra.runtime);
    await waitUntilReady(auth.url);
  });

  afterAll(async () => {
    await auth?.close();
    await sink?.close();
    await infra?.close();
  });

  it('mails the code through the SMTP server, in the caller’s language, and the code registers', async () => {
    const username = `s${randomBytes(5).toString('hex')}`;
    const email = `${username}@example.com`;

    const sent = await call(auth.url, `/api/verification?email=${email}`, {
      headers: { 'accept-language': 'en', 'x-forwarded-for': `10.9.${randomBytes(1)[0]}.1` },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true, message: 'Code sent', data: null });
    const mail = await eventually('the message at the SMTP sink', async () =>
      sink.messages.find((raw) => recipientOf(raw) === email),
    );
    expect(mail).toMatch(/^Subject: Your Tollgate verification code/m);
    expect(mail).toMatch(/^From: Tollgate <no-reply@tollgate\.test>/m);

    const registered = await call(auth.url, '/api/user/register', {
      body: {
        username,
        email,
        password: 'smtp-password-1',
        verification_code: codeIn(mail),
        agree_to_terms: true,
        agree_to_data_processing: true,
      },
    });
    expect(registered.status).toBe(200);
    expect(registered.body.data).toMatchObject({ username });
  });
});
