import { createHash } from 'node:crypto';
import { cryptoSignature, hasValidCryptoSignature, phpJson } from './crypto-signature';

const key = 'merchant-api-key';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('crypto webhook signatures', () => {
  const body = {
    type: 'payment',
    uuid: 'a1',
    order_id: 'tollgate-7',
    amount: '100.00',
    status: 'paid',
    url: 'https://x/y',
  };
  const signed = { ...body, sign: cryptoSignature(phpJson(body), key) };

  it('signs md5(base64(json) + key) over PHP-style JSON, slashes escaped', () => {
    expect(phpJson({ url: 'https://x/y' })).toBe('{"url":"https:\\/\\/x\\/y"}');
    expect(cryptoSignature('{"a":1}', key)).toBe(md5(Buffer.from('{"a":1}').toString('base64') + key));
  });

  it('accepts a body signed with the key', () => {
    expect(hasValidCryptoSignature(signed, key)).toBe(true);
  });

  it.each([
    ['a changed field', { ...signed, amount: '1000.00' }],
    ['another key', { ...body, sign: cryptoSignature(phpJson(body), 'other') }],
    ['no signature', body],
    ['a signature that is not md5 hex', { ...body, sign: 'nope' }],
  ])('refuses %s', (_name, candidate) => {
    expect(hasValidCryptoSignature(candidate, key)).toBe(false);
  });
});
