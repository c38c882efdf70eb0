import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ClientAddressResolver, trustedProxiesProblem } from './client-address';

function from(peer: string, headers: IncomingHttpHeaders = {}, encrypted = false): IncomingMessage {
  return {
    socket: { remoteAddress: peer, ...(encrypted ? { encrypted } : {}) },
    headers,
  } as unknown as IncomingMessage;
}

const FORGED = { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' };

describe('ClientAddressResolver', () => {
  it('takes the connecting peer as the client when no proxy is trusted, whatever the headers claim', () => {
    const resolver = new ClientAddressResolver([]);

    expect(resolver.resolve(from('198.51.100.7', FORGED))).toEqual({ ip: '198.51.100.7', protocol: 'http' });
  });

  it('reports https for an encrypted connection', () => {
    expect(new ClientAddressResolver([]).resolve(from('198.51.100.7', {}, true)).protocol).toBe('https');
  });

  it('believes the forwarding headers of a trusted proxy', () => {
    const resolver = new ClientAddressResolver(['10.0.0.0/8']);

    expect(resolver.resolve(from('10.1.2.3', FORGED))).toEqual({ ip: '6.6.6.6', protocol: 'https' });
  });

  it('stops at the first untrusted hop, so a client cannot prepend a made-up address', () => {
    const resolver = new ClientAddressResolver(['loopback', '10.0.0.0/8']);
    const req = from('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.5' });

    expect(resolver.resolve(req).ip).toBe('203.0.113.9');
  });

  it('takes the protocol the nearest proxy appended', () => {
    const resolver = new ClientAddressResolver(['loopback']);

    expect(resolver.resolve(from('127.0.0.1', { 'x-forwarded-proto': 'http, https' })).protocol).toBe(
      'https',
    );
    expect(resolver.resolve(from('127.0.0.1', { 'x-forwarded-proto': 'gopher' })).protocol).toBe('http');
  });

  it('ignores forwarding headers from a peer outside the trusted list', () => {
    const resolver = new ClientAddressResolver(['10.0.0.0/8']);

    expect(resolver.resolve(from('198.51.100.7', FORGED))).toEqual({ ip: '198.51.100.7', protocol: 'http' });
  });
});

describe('trustedProxiesProblem', () => {
  it('accepts addresses, ranges and range names', () => {
    expect(trustedProxiesProblem([])).toBeUndefined();
    expect(
      trustedProxiesProblem(['loopback', 'uniquelocal', '10.0.0.0/8', '192.0.2.1', '::1']),
    ).toBeUndefined();
  });

  it('names an entry that is not an address', () => {
    expect(trustedProxiesProblem(['10.0.0.0/8', 'balancer.internal'])).toContain('balancer.internal');
    expect(trustedProxiesProblem(['10.0.0.0/99'])).toContain('10.0.0.0/99');
  });
});
