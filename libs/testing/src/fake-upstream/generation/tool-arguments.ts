/**
 * Deterministic arguments for a function call, shaped by the function's JSON-schema parameters
 * so that a client validating them gets a well-typed object. Gemini writes types in upper case
 * ("STRING"), hence the case-insensitive type check.
 */
type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(schema: Schema): string {
  const type = Array.isArray(schema['type']) ? schema['type'].find((t) => t !== 'null') : schema['type'];
  if (typeof type === 'string') return type.toLowerCase();
  if (isSchema(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return 'string';
}

function valueFor(schema: unknown, name: string, depth: number): unknown {
  if (!isSchema(schema)) return `fake-${name}`;
  if (schema['const'] !== undefined) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  const variants = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(variants) && variants.length > 0) return valueFor(variants[0], name, depth);
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 42;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return depth >= MAX_DEPTH ? [] : [valueFor(schema['items'], name, depth + 1)];
    case 'object':
      return depth >= MAX_DEPTH ? {} : objectFor(schema, depth + 1);
    default:
      return `fake-${name}`;
  }
}

function objectFor(schema: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(schema['properties']) ? schema['properties'] : {};
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) result[name] = valueFor(property, name, depth);
  return result;
}

export function fakeToolArguments(parameters: unknown): Record<string, unknown> {
  return isSchema(parameters) ? objectFor(parameters, 0) : {};
}
