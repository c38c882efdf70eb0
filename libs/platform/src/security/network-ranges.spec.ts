import { isNonPublicAddress, nonPublicRangeOf, parseAllowedRanges, refusedRangeOf } from './network-ranges';

describe('nonPublicRangeOf', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://localhost:3000', 'loopback'],
    ['https://api.LOCALHOST./x', 'loopback'],
    ['http://10.1.2.3', 'private'],
    ['http://172.31.255.1', 'private'],
    ['http://192.168.0.10', 'private'],
    ['http://100.64.0.1', 'private'],
    ['http://[fd00:ec2::254]/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://0.0.0.0:80', 'unspecified'],
    ['http://[::]/', 'unspecified'],
  ])('puts %s in %s', (url, range) => {
    expect(nonPublicRangeOf(url)).toBe(range);
  });

  it.each([
    'https://api.openai.com/v1',
    'https://8.8.8.8/',
    'http://172.32.0.1/',
    'https://[2606:4700::1111]/',
    'https://localhost.example.com/',
    'not a url',
  ])('leaves %s alone', (url) => {
    expect(nonPublicRangeOf(url)).toBeUndefined();
  });
});

describe('refusedRangeOf', () => {
  it('refuses a non-public host unless its range is allowed', () => {
    expect(refusedRangeOf('http://127.0.0.1/', [])).toBe('loopback');
    expect(refusedRangeOf('http://127.0.0.1/', ['loopback'])).toBeUndefined();
    expect(refusedRangeOf('http://169.254.169.254/', ['loopback', 'private'])).toBe('link-local');
    expect(refusedRangeOf('https://api.openai.com/', [])).toBeUndefined();
  });
});

describe('parseAllowedRanges', () => {
  it('reads a comma-separated list and refuses names it does not know', () => {
    expect(parseAllowedRanges(' Loopback, private ,')).toEqual(['loopback', 'private']);
    expect(parseAllowedRanges('')).toEqual([]);
    expect(parseAllowedRanges('none')).toEqual([]);
    expect(() => parseAllowedRanges('loopback,intranet')).toThrow('unknown address range "intranet"');
  });
});

describe('isNonPublicAddress', () => {
  it("tells a socket's loopback and private peers from public ones, IPv4-mapped addresses included", () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '172.20.0.5', 'fd00::1']) {
      expect(isNonPublicAddress(address)).toBe(true);
    }
    for (const address of ['8.8.8.8', '::ffff:8.8.8.8', '2001:4860::8888', 'localhost', '', undefined]) {
      expect(isNonPublicAddress(address)).toBe(false);
    }
  });
});
