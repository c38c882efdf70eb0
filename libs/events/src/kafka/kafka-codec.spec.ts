import type { KafkaMessage } from 'kafkajs';
import { decodeRecord } from '../shared/deliver-batch';
import { decodeKafkaMessage, readKafkaMessage, toKafkaMessage } from './kafka-codec';

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
  it('encodes values as JSON, tombstones as null and copies headers', () => {
    expect(toKafkaMessage({ topic: 't', key: 'k', value: { a: 1 }, headers: { h: 'v' } })).toEqual({
      key: 'k',
      value: '{"a":1}',
      headers: { h: 'v' },
    });
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

  describe('readKafkaMessage', () => {
    const positive = (value: unknown) => {
      const total = (value as { total?: unknown }).total;
      if (typeof total !== 'number' || total <= 0) throw new Error('total is not positive');
      return { total };
    };
    const headers = { 'x-request-id': Buffer.from('r1'), repeated: [Buffer.from('a'), 'b'] };

    it('reads as decodeKafkaMessage then decodeRecord do, for each kind of value', () => {
      for (const value of ['{"total":5,"extra":1}', '{"total":-1}', 'not json', null]) {
        for (const decode of [positive, undefined]) {
          const raw = message(value === null ? null : Buffer.from(value), headers);
          const decoded = decodeKafkaMessage('orders', 3, raw);
          const expected = decoded.ok
            ? decodeRecord(decoded.record, decode)
            : { ok: false, record: decoded.raw, error: decoded.error };
          expect(readKafkaMessage('orders', 3, raw, decode)).toEqual(expected);
        }
      }
    });

    it("hands the handler decode's value", () => {
      const read = readKafkaMessage(
        'orders',
        0,
        message(Buffer.from('{"total":5,"extra":1}'), headers),
        positive,
      );
      expect(read).toEqual({
        ok: true,
        record: {
          topic: 'orders',
          partition: 0,
          offset: '42',
          key: 'user-1',
          value: { total: 5 },
          headers: { 'x-request-id': 'r1', repeated: 'b' },
          timestamp: 1_700_000_000_000,
        },
      });
    });

    it('keeps the parsed value of a record decode refuses, with its error', () => {
      const read = readKafkaMessage('orders', 0, message(Buffer.from('{"total":-1}')), positive);
      expect(read.ok).toBe(false);
      expect(read.record.value).toEqual({ total: -1 });
      if (!read.ok) expect((read.error as Error).message).toBe('total is not positive');
    });

    it('keeps the raw text of a value that is not JSON, without calling decode', () => {
      const decode = jest.fn(positive);
      const read = readKafkaMessage('orders', 0, message(Buffer.from('private text')), decode);
      expect(read).toMatchObject({ ok: false, record: { value: 'private text' } });
      if (!read.ok) expect((read.error as Error).message).toBe('value is not JSON (12 characters)');
      expect(decode).not.toHaveBeenCalled();
    });
  });
});
