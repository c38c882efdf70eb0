import { DriverException } from '@mikro-orm/core';
import { z } from 'zod';
import { z as z4 } from 'zod/v4';
import { decodeWithSchema, failureRule } from './consumer-rules';

const orderV1 = z.object({ v: z.literal(1), n: z.number().int(), status: z.enum(['open', 'paid']) });

/** What MikroORM raises for a query while PostgreSQL refuses connections. */
const databaseAway = new DriverException(
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
    syscall: 'connect',
  }),
);
const bug = new TypeError("Cannot read properties of undefined (reading 'id')");

describe('failureRule', () => {
  it('waits out the infrastructure being away and lets anything else be dead-lettered, by default', () => {
    const isTransient = failureRule();
    expect(isTransient(databaseAway)).toBe(true);
    expect(
      isTransient(new DriverException(Object.assign(new Error('admin shutdown'), { code: '57P01' }))),
    ).toBe(true);
    expect(isTransient(bug)).toBe(false);
  });

  it("widens with the consumer's own rule and never narrows", () => {
    expect(failureRule(() => true)(bug)).toBe(true);
    expect(failureRule(() => false)(databaseAway)).toBe(true);
    expect(failureRule((error) => error === bug)(new Error('other'))).toBe(false);
  });
});

describe('decodeWithSchema', () => {
  it('passes what matches the schema, a tombstone included when the schema is nullable', () => {
    const decode = decodeWithSchema(orderV1.nullable());
    expect(decode({ v: 1, n: 5, status: 'paid' })).toEqual({ v: 1, n: 5, status: 'paid' });
    expect(decode(null)).toBeNull();
    expect(() => decodeWithSchema(orderV1)(null)).toThrow(
      'does not match its schema: (value): invalid_type (expected object, got null)',
    );
  });

  it('names each failing field and what was wrong, never the value it held', () => {
    const decode = decodeWithSchema(orderV1);
    expect(() => decode({ v: 1, n: 'private text', status: 'open' })).toThrow(
      'does not match its schema: n: invalid_type (expected number, got string)',
    );
    expect(() => decode({ v: 1, n: 3, status: 'private text' })).toThrow(
      /^does not match its schema: status: invalid_enum_value$/,
    );
  });

  it('takes a zod 4 schema (zod/v4) alike: what matches passes, a failure names the field, never its value', () => {
    const decode = decodeWithSchema(
      z4.object({ v: z4.literal(1), n: z4.number().int(), status: z4.enum(['open', 'paid']) }),
    );
    expect(decode({ v: 1, n: 5, status: 'paid' })).toEqual({ v: 1, n: 5, status: 'paid' });
    expect(() => decode({ v: 1, n: 'private text', status: 'open' })).toThrow(
      /^does not match its schema: n: invalid_type \(expected number\)$/,
    );
    expect(() => decode({ v: 1, n: 3, status: 'private text' })).toThrow(
      /^does not match its schema: status: invalid_value$/,
    );
  });
});
