import { SignJWT, UnsecuredJWT } from 'jose';
import type { Identity } from './identity';
import { InvalidInternalTokenError, signInternalToken, verifyInternalToken } from './internal-token';
import { Role } from './role';

const SECRET = 'internal-token-secret-of-at-least-32-chars';
const identity: Identity = {
  userId: 12,
  role: Role.Admin,
  group: 'vip',
  sessionId: 'sess-9',
  via: 'session',
};
const NOW = 1_800_000_000;

const rejection = async (promise: Promise<unknown>): Promise<InvalidInternalTokenError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(InvalidInternalTokenError);
  return error as InvalidInternalTokenError;
};

describe('internal identity token', () => {
  it('round-trips the identity', async () => {
    const token = await signInternalToken(identity, SECRET);
    await expect(verifyInternalToken(token, SECRET)).resolves.toEqual(identity);
  });

  it('keeps optional fields absent when not given', async () => {
    const apiCaller: Identity = { userId: 3, role: Role.User, via: 'api' };
    await expect(verifyInternalToken(await signInternalToken(apiCaller, SECRET), SECRET)).resolves.toEqual(
      apiCaller,
    );
  });

  it('expires after 60 seconds (with a few seconds of clock tolerance)', async () => {
    const token = await signInternalToken(identity, SECRET, { now: NOW });
    await expect(verifyInternalToken(token, SECRET, { now: NOW + 59 })).resolves.toEqual(identity);
    const error = await rejection(verifyInternalToken(token, SECRET, { now: NOW + 70 }));
    expect(error.reason).toBe('expired');
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await signInternalToken(identity, SECRET)).split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ sub: '12', role: Role.Root, via: 'session', iat: NOW, exp: NOW + 60 }),
    ).toString('base64url');
    expect(
      (await rejection(verifyInternalToken(`${header}.${forgedPayload}.${signature}`, SECRET))).reason,
    ).toBe('invalid');
  });

  it('refuses a token signed with another secret', async () => {
    const token = await signInternalToken(identity, 'another-secret-that-is-also-32-chars-long');
    await rejection(verifyInternalToken(token, SECRET));
  });

  it('refuses unsigned tokens and tokens from another issuer', async () => {
    const unsecured = new UnsecuredJWT({ role: Role.Root, via: 'api' })
      .setSubject('1')
      .setIssuer('tollgate-gateway')
      .setAudience('tollgate-services')
      .setIssuedAt()
      .setExpirationTime('1m')
      .encode();
    await rejection(verifyInternalToken(unsecured, SECRET));

    const otherIssuer = await new SignJWT({ role: Role.Root, via: 'api' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('someone-else')
      .setAudience('tollgate-services')
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(Buffer.from(SECRET));
    await rejection(verifyInternalToken(otherIssuer, SECRET));
  });

  it('refuses a well-signed token whose claims are not an identity', async () => {
    const token = await new SignJWT({ role: 55, via: 'telepathy' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('not-a-number')
      .setIssuer('tollgate-gateway')
      .setAudience('tollgate-services')
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(Buffer.from(SECRET));
    await rejection(verifyInternalToken(token, SECRET));
  });

  it('refuses garbage', async () => {
    await rejection(verifyInternalToken('not.a.jwt', SECRET));
    await rejection(verifyInternalToken('', SECRET));
  });
});
