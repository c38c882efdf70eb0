import type { KafkaMessage } from 'kafkajs';
import { decodeKafkaMessage, toKafkaMessage } from './kafka-codec';

function message(value: Buffer | null, headers: KafkaMessage['headers'] = {}): KafkaMessage {
  return {
    key: Buffer.from('user-1'),
    value,
    headers,
    timestamp: '1700000000000',
    attributes: 0,
    offset: '42',
  };
}

describe('kafka codec', () => {
  it('encodes values as the UTF-8 bytes of their JSON, tombstones as null and copies headers', () => {
    const headers = { h: 'v' };
    const message = toKafkaMessage({ topic: 't', key: 'k', value: { a: 1, text: 'ключ' }, headers });
    expect(message).toEqual({ key: 'k', value: Buffer.from('{"a":1,"text":"ключ"}', 'utf8'), headers });
    expect(Buffer.isBuffer(message.value)).toBe(true);
    expect(message.headers).not.toBe(headers);
    expect(toKafkaMessage({ topic: 't', key: 'k', value: null }).value).toBeNull();
  });

  it('refuses a value that has no JSON form', () => {
    expect(() => toKafkaMessage({ topic: 't', key: 'k', value: undefined })).toThrow(/not JSON/);
  });

  it('decodes a message into an EventRecord with string headers', () => {
    const decoded = decodeKafkaMessage(
      'orders',
      2,
      message(Buffer.from('{"total":5}'), {
        'x-request-id': Buffer.from('r1'),
        repeated: [Buffer.from('a'), 'b'],
      }),
    );
    expect(decoded).toEqual({
      ok: true,
      record: {
        topic: 'orders',
        partition: 2,
        offset: '42',
        key: 'user-1',
        value: { total: 5 },
        headers: { 'x-request-id': 'r1', repeated: 'b' },
        timestamp: 1_700_000_000_000,
      },
    });
  });

  it('decodes a null value as a tombstone', () => {
    const decoded = decodeKafkaMessage('prices', 0, message(null));
    expect(decoded.ok && decoded.record.value).toBeNull();
  });

  it('hands back the raw text of a value that is not JSON', () => {
    const decoded = decodeKafkaMessage('orders', 0, message(Buffer.from('not json')));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.raw.value).toBe('not json');
  });

  it('says a value is not JSON without quoting any of it', () => {
    const decoded = decodeKafkaMessage('orders', 0, message(Buffer.from('private text')));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.message).toBe('value is not JSON (12 characters)');
  });
});
