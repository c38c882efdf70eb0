/**
 * A deterministic JSON value that fits a JSON schema: what the fake answers for structured output
 * (`response_format` json_schema, Gemini's `responseSchema`, Anthropic's `output_config.format`) and
 * for tool arguments, so that a client validating the answer against its schema accepts it.
 *
 * Covers what SDK helpers emit (zod, Pydantic, Gemini's OpenAPI subset with upper-case types):
 * objects (every property, required ones included even when not declared), arrays (`items`,
 * `prefixItems`, `minItems`/`maxItems`), enums and consts, strings (`minLength`/`maxLength`, common
 * `format`s), numbers and integers (bounds, exclusive bounds, `multipleOf`), booleans, null,
 * `anyOf`/`oneOf` (the first non-null branch), `allOf` (merged), and local `$ref`s (`#/$defs/…`).
 * `pattern` is not honoured: no regular-expression generator is worth its weight here.
 */
type Schema = Record<string, unknown>;

/** Deeper than any real answer schema; recursive schemas stop here with the emptiest value that fits. */
const MAX_DEPTH = 8;

const STRING_FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'PT1H',
  email: 'fake@example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberField(schema: Schema, name: string): number | undefined {
  const value = schema[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  // Gemini's OpenAPI subset may give int64 bounds as strings.
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** The first declared type that is not null, lower-cased (Gemini writes `STRING`), or one inferred. */
function typeOf(schema: Schema): string {
  const declared = Array.isArray(schema['type'])
    ? (schema['type'].find((t) => t !== 'null' && t !== 'NULL') ?? schema['type'][0])
    : schema['type'];
  if (typeof declared === 'string') return declared.toLowerCase();
  if (isSchema(schema['properties']) || Array.isArray(schema['required'])) return 'object';
  if (schema['items'] !== undefined || schema['prefixItems'] !== undefined) return 'array';
  return 'string';
}

function isNullOnly(schema: unknown): boolean {
  return isSchema(schema) && (schema['type'] === 'null' || schema['type'] === 'NULL');
}

class SchemaValues {
  constructor(private readonly root: unknown) {}

  valueOf(schema: unknown, name: string, depth: number, index = 0): unknown {
    if (schema === true || schema === undefined) return `fake-${name}`;
    if (!isSchema(schema)) return null;
    const resolved = this.resolved(schema, depth);
    if (resolved === undefined) return null;
    if (resolved['const'] !== undefined) return resolved['const'];
    if (Array.isArray(resolved['enum']) && resolved['enum'].length > 0)
      return resolved['enum'][index % resolved['enum'].length];
    const variants = resolved['anyOf'] ?? resolved['oneOf'];
    if (Array.isArray(variants) && variants.length > 0) {
      const branch = variants.find((variant) => !isNullOnly(variant)) ?? variants[0];
      return this.valueOf(branch, name, depth + 1, index);
    }
    switch (typeOf(resolved)) {
      case 'integer':
        return integerIn(resolved, index);
      case 'number':
        return numberIn(resolved, index);
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'array':
        return this.arrayOf(resolved, name, depth);
      case 'object':
        return this.objectOf(resolved, depth);
      default:
        return stringFor(resolved, name, index);
    }
  }

  objectOf(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isSchema(schema['properties']) ? schema['properties'] : {};
    const required = Array.isArray(schema['required'])
      ? schema['required'].filter((key): key is string => typeof key === 'string')
      : [];
    const result: Record<string, unknown> = {};
    // Past the depth limit only required properties are filled, so a recursive schema still ends.
    const names = depth >= MAX_DEPTH ? required : [...new Set([...Object.keys(properties), ...required])];
    for (const key of names) result[key] = this.valueOf(properties[key], key, depth + 1);
    return result;
  }

  private arrayOf(schema: Schema, name: string, depth: number): unknown[] {
    const prefix = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : [];
    const minItems = numberField(schema, 'minItems') ?? 0;
    const maxItems = numberField(schema, 'maxItems') ?? Number.POSITIVE_INFINITY;
    const wanted = depth >= MAX_DEPTH ? minItems : Math.max(minItems, prefix.length, 1);
    const count = Math.min(wanted, maxItems);
    const items: unknown[] = [];
    for (let index = 0; index < count; index += 1) {
      const itemSchema = index < prefix.length ? prefix[index] : schema['items'];
      items.push(this.valueOf(itemSchema, name, depth + 1, index));
    }
    return items;
  }

  /** `$ref` followed and `allOf` merged; undefined for a reference that leads nowhere. */
  private resolved(schema: Schema, depth: number): Schema | undefined {
    let current = schema;
    for (let hops = 0; typeof current['$ref'] === 'string'; hops += 1) {
      const target = hops < MAX_DEPTH ? this.pointer(current['$ref']) : undefined;
      if (!isSchema(target)) return undefined;
      const { $ref: _ref, ...siblings } = current;
      current = { ...target, ...siblings };
    }
    const parts = current['allOf'];
    if (!Array.isArray(parts) || depth >= MAX_DEPTH) return current;
    const { allOf: _allOf, ...rest } = current;
    return parts.reduce<Schema>((merged, part) => {
      const next = isSchema(part) ? this.resolved(part, depth + 1) : undefined;
      if (next === undefined) return merged;
      return {
        ...merged,
        ...next,
        properties: { ...(merged['properties'] as Schema), ...(next['properties'] as Schema) },
        required: [
          ...((merged['required'] as unknown[] | undefined) ?? []),
          ...((next['required'] as unknown[] | undefined) ?? []),
        ],
      };
    }, rest);
  }

  /** A local JSON pointer (`#/$defs/Name`, `#/definitions/Name`, `#`). */
  private pointer(ref: string): unknown {
    if (!ref.startsWith('#')) return undefined;
    let node: unknown = this.root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = isSchema(node) ? node[key] : undefined;
    }
    return node;
  }
}

function stringFor(schema: Schema, name: string, index: number): string {
  const format = typeof schema['format'] === 'string' ? STRING_FORMATS[schema['format']] : undefined;
  let text = format ?? (index === 0 ? `fake-${name}` : `fake-${name}-${index}`);
  const minLength = numberField(schema, 'minLength') ?? 0;
  const maxLength = numberField(schema, 'maxLength');
  if (text.length < minLength) text = text.padEnd(minLength, 'x');
  if (maxLength !== undefined && text.length > maxLength) text = text.slice(0, maxLength);
  return text;
}

interface Bounds {
  low: number | undefined;
  high: number | undefined;
}

function boundsOf(schema: Schema, step: number): Bounds {
  const minimum = numberField(schema, 'minimum');
  const maximum = numberField(schema, 'maximum');
  // Draft 4 writes exclusiveMinimum: true beside minimum; later drafts give the bound itself.
  const exclusiveLow = schema['exclusiveMinimum'];
  const exclusiveHigh = schema['exclusiveMaximum'];
  const low =
    typeof exclusiveLow === 'number'
      ? exclusiveLow + step
      : exclusiveLow === true && minimum !== undefined
        ? minimum + step
        : minimum;
  const high =
    typeof exclusiveHigh === 'number'
      ? exclusiveHigh - step
      : exclusiveHigh === true && maximum !== undefined
        ? maximum - step
        : maximum;
  return { low, high };
}

/** 42 (plus the item's index), moved into the bounds, then onto a multiple of `multipleOf`. */
function fitted(schema: Schema, step: number, index: number): number {
  const { low, high } = boundsOf(schema, step);
  let value = low ?? 42 + index;
  if (low !== undefined) value = low + index;
  if (high !== undefined && value > high) value = high;
  const multipleOf = numberField(schema, 'multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) {
    const up = Math.ceil(value / multipleOf) * multipleOf;
    value = high !== undefined && up > high ? Math.floor(value / multipleOf) * multipleOf : up;
  }
  return value;
}

function integerIn(schema: Schema, index: number): number {
  const value = fitted(schema, 1, index);
  return Number.isInteger(value) ? value : Math.ceil(value);
}

function numberIn(schema: Schema, index: number): number {
  return fitted(schema, 0.5, index);
}

/** A value that fits `schema` (references resolved against the schema itself). */
export function valueFittingSchema(schema: unknown): unknown {
  return new SchemaValues(schema).valueOf(schema, 'value', 0);
}

/** An object that fits an object schema (tool arguments); `{}` when there is no schema. */
export function objectFittingSchema(schema: unknown): Record<string, unknown> {
  if (!isSchema(schema)) return {};
  const value = valueFittingSchema(schema);
  return isSchema(value) ? value : {};
}
