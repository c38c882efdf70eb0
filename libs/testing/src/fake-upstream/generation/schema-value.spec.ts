import { z } from 'zod/v4';
import { objectFittingSchema, valueFittingSchema } from './schema-value';

describe('valueFittingSchema', () => {
  it('fills an object with every property, by type, enum and format', () => {
    expect(
      valueFittingSchema({
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer' },
          ratio: { type: 'number' },
          sunny: { type: 'boolean' },
          when: { type: 'string', format: 'date-time' },
          nothing: { type: 'null' },
        },
        required: ['city', 'unit', 'days', 'ratio', 'sunny', 'when', 'nothing'],
        additionalProperties: false,
      }),
    ).toEqual({
      city: 'fake-city',
      unit: 'celsius',
      days: 42,
      ratio: 42,
      sunny: true,
      when: '2025-01-01T00:00:00Z',
      nothing: null,
    });
  });

  it('keeps numbers and strings within their bounds', () => {
    const value = valueFittingSchema({
      type: 'object',
      properties: {
        small: { type: 'integer', maximum: 5 },
        positive: { type: 'integer', exclusiveMinimum: 0, maximum: 3 },
        tenths: { type: 'number', minimum: 0.25, multipleOf: 0.5 },
        even: { type: 'integer', minimum: 7, multipleOf: 2 },
        code: { type: 'string', minLength: 20 },
        short: { type: 'string', maxLength: 3 },
      },
    });
    expect(value).toEqual({
      small: 5,
      positive: 1,
      tenths: 0.5,
      even: 8,
      code: 'fake-codexxxxxxxxxxx',
      short: 'fak',
    });
  });

  it('gives arrays the items they need, tuples included', () => {
    expect(
      valueFittingSchema({
        type: 'object',
        properties: {
          hours: { type: 'array', items: { type: 'integer' } },
          pair: { type: 'array', minItems: 3, items: { type: 'string', enum: ['a', 'b'] } },
          none: { type: 'array', maxItems: 0, items: { type: 'string' } },
          tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: false },
        },
      }),
    ).toEqual({ hours: [42], pair: ['a', 'b', 'a'], none: [], tuple: ['fake-tuple', true] });
  });

  it('follows local $refs and merges allOf, as Pydantic writes nested models', () => {
    expect(
      valueFittingSchema({
        $defs: {
          Place: {
            type: 'object',
            properties: { name: { type: 'string' }, kind: { $ref: '#/$defs/Kind' } },
            required: ['name', 'kind'],
          },
          Kind: { enum: ['city', 'town'], type: 'string' },
        },
        type: 'object',
        properties: {
          place: { $ref: '#/$defs/Place' },
          extra: { allOf: [{ $ref: '#/$defs/Place' }, { properties: { size: { type: 'integer' } } }] },
          maybe: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 3 }] },
        },
        required: ['place', 'extra', 'maybe'],
      }),
    ).toEqual({
      place: { name: 'fake-name', kind: 'city' },
      extra: { name: 'fake-name', kind: 'city', size: 42 },
      maybe: 3,
    });
  });

  it("reads Gemini's OpenAPI subset (upper-case types, string bounds)", () => {
    expect(
      valueFittingSchema({
        type: 'OBJECT',
        properties: {
          n: { type: 'INTEGER', minimum: '2' },
          tags: { type: 'ARRAY', items: { type: 'STRING' } },
          flag: { type: 'BOOLEAN', nullable: true },
        },
        required: ['n'],
      }),
    ).toEqual({ n: 2, tags: ['fake-tags'], flag: true });
  });

  it('ends on a recursive schema, filling only required properties past the depth limit', () => {
    const tree = {
      $defs: {
        Node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
          required: ['label', 'children'],
        },
      },
      $ref: '#/$defs/Node',
    };
    const value = valueFittingSchema(tree);
    expect(JSON.stringify(value).length).toBeLessThan(2_000);
    expect(value).toMatchObject({ label: 'fake-label', children: [{ label: 'fake-label' }] });
  });

  it('fits what zod and JSON-schema helpers produce for a structured answer', () => {
    const Forecast = z.object({
      city: z.string().min(2),
      days: z.number().int().positive(),
      sunny: z.boolean(),
      unit: z.enum(['celsius', 'fahrenheit']),
      hours: z.array(z.number().int()).min(2),
      where: z.object({ lat: z.number().min(-90).max(90), note: z.string().nullable() }),
      at: z.iso.datetime(),
    });
    const value = valueFittingSchema(z.toJSONSchema(Forecast));
    expect(Forecast.strict().safeParse(value).error).toBeUndefined();
  });

  it('gives an empty object for tool arguments without a schema', () => {
    expect(objectFittingSchema(undefined)).toEqual({});
    expect(objectFittingSchema({ type: 'string' })).toEqual({});
  });
});
