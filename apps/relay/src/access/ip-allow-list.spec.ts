import { IpAllowList } from './ip-allow-list';

describe('IpAllowList', () => {
  it('allows everyone when empty or when no entry is an address', () => {
    expect(new IpAllowList([]).allows('203.0.113.9')).toBe(true);
    expect(new IpAllowList(['not-an-ip', '']).allows('203.0.113.9')).toBe(true);
  });

  it('matches single addresses and CIDR ranges', () => {
    const list = new IpAllowList(['198.51.100.7', '10.0.0.0/8', '2001:db8::/32']);
    expect(list.allows('198.51.100.7')).toBe(true);
    expect(list.allows('10.200.3.4')).toBe(true);
    expect(list.allows('2001:db8:1::5')).toBe(true);
    expect(list.allows('198.51.100.8')).toBe(false);
    expect(list.allows('11.0.0.1')).toBe(false);
    expect(list.allows('2001:db9::1')).toBe(false);
  });

  it('treats an IPv4-mapped IPv6 client as its IPv4 address', () => {
    expect(new IpAllowList(['192.0.2.0/24']).allows('::ffff:192.0.2.44')).toBe(true);
  });

  it('refuses a client address that is not an address at all', () => {
    expect(new IpAllowList(['192.0.2.1']).allows('unknown')).toBe(false);
  });

  it('skips ranges with an impossible prefix', () => {
    const list = new IpAllowList(['192.0.2.0/33', '192.0.2.1']);
    expect(list.allows('192.0.2.1')).toBe(true);
    expect(list.allows('192.0.2.2')).toBe(false);
  });
});
