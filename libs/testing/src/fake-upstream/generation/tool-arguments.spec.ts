import { fakeToolArguments } from './tool-arguments';

describe('fakeToolArguments', () => {
  it('fills every property with a value of its type', () => {
    const args = fakeToolArguments({
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1 },
        detailed: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        where: { type: 'object', properties: { lat: { type: 'number' } } },
        note: { type: ['string', 'null'] },
      },
      required: ['city'],
    });
    expect(args).toEqual({
      city: 'fake-city',
      unit: 'celsius',
      days: 1,
      detailed: true,
      tags: ['fake-tags'],
      where: { lat: 42 },
      note: 'fake-note',
    });
  });

  it("reads Gemini's upper-case types", () => {
    expect(fakeToolArguments({ type: 'OBJECT', properties: { n: { type: 'INTEGER' } } })).toEqual({ n: 42 });
  });

  it('gives an empty object without a schema', () => {
    expect(fakeToolArguments(undefined)).toEqual({});
  });

  it('stops at a bounded depth on recursive-looking schemas', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: {} };
    for (let depth = 0; depth < 20; depth += 1) schema = { type: 'object', properties: { child: schema } };
    expect(JSON.stringify(fakeToolArguments(schema)).length).toBeLessThan(200);
  });
});
