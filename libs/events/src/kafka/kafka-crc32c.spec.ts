import { randomBytes } from 'node:crypto';
import { crc32c } from './kafka-crc32c';

/* eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs's own CRC-32C, the reference */
const kafkajsCrc32C = require('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Buffer) => number;

describe('crc32c', () => {
  it('gives the standard check value and that of empty input', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
  });

  it('equals kafkajs for every length up to 80 bytes and for random buffers up to 64 KiB', () => {
    const inputs = [
      ...Array.from({ length: 81 }, (_, length) => randomBytes(length)),
      ...Array.from({ length: 200 }, () => randomBytes(Math.floor(Math.random() * 65_536))),
      Buffer.alloc(1000, 0xff),
    ];
    for (const input of inputs)
      expect([input.length, crc32c(input)]).toEqual([input.length, kafkajsCrc32C(input)]);
  });

  it('reads a view at an offset in a larger buffer as the bytes it shows', () => {
    const whole = randomBytes(1024);
    const view = whole.subarray(13, 1000);
    expect(crc32c(view)).toBe(kafkajsCrc32C(Buffer.from(view)));
  });
});
