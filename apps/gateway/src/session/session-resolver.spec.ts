import type { SessionIdentity, SessionLookupRequest } from '@tollgate/contracts';
import { SessionResolver } from './session-resolver';

const alice: SessionIdentity = { userId: 7, role: 1, group: 'default', sessionId: 's-7' };

function lookupOf(answers: Record<string, SessionIdentity | null>) {
  const calls: string[] = [];
  const lookup = (request: SessionLookupRequest) => {
    const secret = 'session' in request ? request.session : `token:${request.access_token}`;
    calls.push(secret);
    return Promise.resolve(answers[secret] ?? null);
  };
  return { lookup, calls };
}

describe('SessionResolver', () => {
  it('remembers a live session for the cache time only', async () => {
    let now = 1_000;
    const { lookup, calls } = lookupOf({ a: alice });
    const resolver = new SessionResolver(lookup, 1000, () => now);

    expect(await resolver.resolve({ session: 'a' })).toEqual(alice);
    now += 999;
    expect(await resolver.resolve({ session: 'a' })).toEqual(alice);
    expect(calls).toEqual(['a']);
    now += 1;
    await resolver.resolve({ session: 'a' });
    expect(calls).toEqual(['a', 'a']);
  });

  it('never remembers an unknown session, nor answers one cookie with another’s session', async () => {
    const { lookup, calls } = lookupOf({ a: alice });
    const resolver = new SessionResolver(lookup, 1000);

    expect(await resolver.resolve({ session: 'b' })).toBeNull();
    expect(await resolver.resolve({ session: 'b' })).toBeNull();
    await resolver.resolve({ session: 'a' });
    expect(await resolver.resolve({ session: 'a-but-longer' })).toBeNull();
    expect(calls).toEqual(['b', 'b', 'a', 'a-but-longer']);
  });

  it('shares one look-up between concurrent requests with the same cookie', async () => {
    const { lookup, calls } = lookupOf({ a: alice });
    const resolver = new SessionResolver(lookup, 0);

    const answers = await Promise.all([
      resolver.resolve({ session: 'a' }),
      resolver.resolve({ session: 'a' }),
      resolver.resolve({ session: 'a' }),
    ]);

    expect(answers).toEqual([alice, alice, alice]);
    expect(calls).toEqual(['a']);
  });

  it('passes a failed look-up on and asks again next time', async () => {
    let fail = true;
    const resolver = new SessionResolver(
      () => (fail ? Promise.reject(new Error('auth down')) : Promise.resolve(alice)),
      1000,
    );

    await expect(resolver.resolve({ session: 'a' })).rejects.toThrow('auth down');
    fail = false;
    await expect(resolver.resolve({ session: 'a' })).resolves.toEqual(alice);
  });

  it('keeps access tokens and cookies apart, even with the same text', async () => {
    const { lookup, calls } = lookupOf({ 'token:a': alice });
    const resolver = new SessionResolver(lookup, 1000);

    expect(await resolver.resolve({ access_token: 'a' })).toEqual(alice);
    expect(await resolver.resolve({ session: 'a' })).toBeNull();
    expect(await resolver.resolve({ access_token: 'a' })).toEqual(alice);
    expect(calls).toEqual(['token:a', 'a']);
  });
});
