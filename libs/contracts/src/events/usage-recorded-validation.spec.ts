import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { groupNameSchema } from '../users/roles';
import { decimalSchema, quotaSchema } from './money';
import { usageRecordedV1 } from './schemas';

/**
 * usage.recorded as it was written until 28 Nov (zod 3, `z.string().uuid()`, the contracts' shared
 * group, quota and decimal schemas), kept here as the reference: the consumers dead-letter what it
 * refused, so a cheaper schema must refuse exactly that and accept the rest with the same values.
 */
const int = z.number().int();
const id = int.positive();
const reference = z.object({
  v: z.literal(1),
  event_id: z.string().uuid(),
  request_id: z.string().min(1).max(128),
  user_id: id,
  token_id: id.nullable(),
  token_name: z.string().max(64),
  channel_id: id.nullable(),
  group: groupNameSchema,
  model: z.string().min(1).max(128),
  upstream_model: z.string().max(128),
  prompt_tokens: int.nonnegative(),
  completion_tokens: int.nonnegative(),
  cached_tokens: int.nonnegative(),
  // Added on 29 Nov (prompt-cache writes priced), optional: events published before carry none.
  cache_write_tokens: int.nonnegative().optional(),
  cache_write_1h_tokens: int.nonnegative().optional(),
  quota: quotaSchema.nonnegative(),
  price: z.object({
    input: decimalSchema,
    output: decimalSchema,
    cached_input: decimalSchema,
    group_ratio: decimalSchema,
    cache_write: decimalSchema.optional(),
    cache_write_1h: decimalSchema.optional(),
  }),
  latency_ms: int.nonnegative(),
  ttft_ms: int.nonnegative().nullable(),
  is_stream: z.boolean(),
  status: z.enum(['success', 'client_aborted', 'upstream_error']),
  created_at: int.nonnegative(),
  response_id: z.string().max(128).optional(),
  finish_reason: z.string().max(32).optional(),
});

const event = {
  v: 1,
  event_id: '0193c5a2-7b1e-7c3d-8e4f-5a6b7c8d9e0f',
  request_id: 'req-1',
  user_id: 1,
  token_id: 2,
  token_name: 'ci',
  channel_id: 3,
  group: 'default',
  model: 'gpt-4o-mini',
  upstream_model: 'gpt-4o-mini-2024-07-18',
  prompt_tokens: 12,
  completion_tokens: 5,
  cached_tokens: 0,
  cache_write_tokens: 8,
  cache_write_1h_tokens: 2,
  quota: 4,
  price: {
    input: '0.15',
    output: '0.6',
    cached_input: '0.075',
    group_ratio: '1',
    cache_write: '0.1875',
    cache_write_1h: '0.3',
  },
  latency_ms: 120,
  ttft_ms: null,
  is_stream: false,
  status: 'success',
  created_at: 1_763_800_000,
  response_id: 'chatcmpl-1',
  finish_reason: 'stop',
};

/** What a field may hold once JSON.parse has read a record (the only input a consumer's schema gets). */
const JSON_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  2,
  1.5,
  -2.5,
  1e-7,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53),
  1e21,
  1e300,
  '',
  ' ',
  'x',
  '1',
  '0.15',
  '-0.5',
  '1e3',
  '.5',
  '1.',
  '0x1f',
  '+1',
  '-0',
  '123456789012345',
  '1234567890123456',
  '0.123456789012',
  '0.1234567890123',
  'vip-1_x',
  'a b',
  'a.b',
  '１',
  'default',
  'a'.repeat(32),
  'a'.repeat(33),
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(128),
  'a'.repeat(129),
  'success',
  'client_aborted',
  'SUCCESS',
  event.event_id,
  event.event_id.toUpperCase(),
  [],
  [1],
  {},
  { input: '1' },
];

/** Every event the reference and the contract must agree on: each field (and price's) replaced or removed. */
function variants(): unknown[] {
  const out: unknown[] = [event, { ...event, extra: 1 }, null, [], 'event', 1, {}];
  const without = (record: Record<string, unknown>, key: string) => {
    const copy = { ...record };
    delete copy[key];
    return copy;
  };
  for (const key of Object.keys(event)) {
    out.push(without(event, key));
    for (const value of JSON_VALUES) out.push({ ...event, [key]: value });
  }
  for (const key of Object.keys(event.price)) {
    out.push({ ...event, price: without(event.price, key) });
    for (const value of JSON_VALUES) out.push({ ...event, price: { ...event.price, [key]: value } });
  }
  return out;
}

/** Strings a uuid check could get wrong: case, the nil uuid, any version or variant, near misses. */
function uuidCandidates(): string[] {
  const valid = [
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    '0193c5a2-7b1e-7c3d-8e4f-5a6b7c8d9e0f',
    '4B8F5B2E-5a43-4b7a-9F3A-2a1c1d6e9f10',
    'abcdef01-2345-0789-cdef-0123456789ab', // version 0, variant 0: not RFC 9562, accepted as before
    ...Array.from({ length: 50 }, () => randomUUID()),
  ];
  const near = valid.slice(0, 6).flatMap((uuid) => [
    uuid.slice(1),
    `${uuid}0`,
    `0${uuid}`,
    ` ${uuid}`,
    `${uuid} `,
    `${uuid}\n`,
    `\n${uuid}`,
    `{${uuid}}`,
    `urn:uuid:${uuid}`,
    uuid.replace(/-/g, ''),
    uuid.replace('-', ''),
    uuid.replace('-', '_'),
    uuid.replace(/-/g, ':'),
    `${uuid.slice(0, 8)}${uuid.slice(9, 10)}-${uuid.slice(10)}`,
    uuid.replace(/^./, 'g'),
    uuid.replace(/.$/, 'G'),
    uuid.replace(/^./, 'é'),
    uuid.replace(/^./, '٠'), // an Arabic-Indic digit
    uuid.replace(/^./, 'ａ'), // fullwidth a
    uuid.replace(/^./, 'K'), // the Kelvin sign, which case-folds to k
    uuid.replace(/^./, 'ſ'), // the long s, which case-folds to s
  ]);
  return [...valid, ...near, ''];
}

describe('usage.recorded validation (the consumers dead-letter what it refuses)', () => {
  it('accepts a valid usage event as it is', () => {
    expect(usageRecordedV1.parse(event)).toEqual(event);
  });

  it('accepts an event published before cache writes were priced, without their fields', () => {
    const { cache_write_tokens: _writes, cache_write_1h_tokens: _hour, ...older } = event;
    const { cache_write: _price, cache_write_1h: _hourPrice, ...olderPrice } = event.price;
    const before = { ...older, price: olderPrice };
    expect(usageRecordedV1.parse(before)).toEqual(before);
  });

  it('refuses fractional quota, float prices and an unknown version', () => {
    expect(usageRecordedV1.safeParse({ ...event, quota: 4.5 }).success).toBe(false);
    expect(usageRecordedV1.safeParse({ ...event, price: { ...event.price, input: 0.15 } }).success).toBe(
      false,
    );
    expect(usageRecordedV1.safeParse({ ...event, v: 2 }).success).toBe(false);
  });

  it('checks event_id as zod 3 `.uuid()` did: the same strings accepted, the same refused', () => {
    const eventId = usageRecordedV1.shape.event_id;
    const oldUuid = z.string().uuid();
    const candidates = uuidCandidates();
    for (const candidate of candidates)
      expect([candidate, eventId.safeParse(candidate).success]).toEqual([
        candidate,
        oldUuid.safeParse(candidate).success,
      ]);
    expect(candidates.filter((candidate) => eventId.safeParse(candidate).success).length).toBe(56);
  });

  it('refuses and accepts every variant of an event as the reference did, with the same values', () => {
    const all = variants();
    let accepted = 0;
    for (const value of all) {
      const before = reference.safeParse(value);
      const after = usageRecordedV1.safeParse(value);
      expect([value, after.success]).toEqual([value, before.success]);
      if (before.success && after.success) {
        accepted++;
        expect(after.data).toEqual(before.data);
        expect(Object.keys(after.data)).toEqual(Object.keys(before.data));
      }
    }
    // Both refuse most variants: the check above would pass for two schemas that refused everything.
    expect(accepted).toBeGreaterThan(200);
    expect(all.length - accepted).toBeGreaterThan(800);
  });
});
