import fc from 'fast-check';
import { ZodFirstPartyTypeKind, type ZodTypeAny } from 'zod';

/** How deep a recursive (lazy) schema is followed before its values are cut short. */
const MAX_DEPTH = 4;

/**
 * Values shaped like a zod schema (zod 3): mostly what it accepts, since a fuzz case then mutates
 * one part of it past the schema and the rest must be valid for the mutation to be the thing
 * tested. Refinements and regexes other than the common formats are not solved: such values are
 * near misses, which is useful too.
 */
export function arbitraryOf(schema: ZodTypeAny, depth = 0): fc.Arbitrary<unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- zod 3 keeps every kind's settings in an untyped _def
  const def = schema._def as any;
  switch (def.typeName as ZodFirstPartyTypeKind) {
    case ZodFirstPartyTypeKind.ZodString:
      return stringOf(def.checks ?? []);
    case ZodFirstPartyTypeKind.ZodNumber:
      return numberOf(def.checks ?? []);
    case ZodFirstPartyTypeKind.ZodBigInt:
      return fc.bigInt().map(String);
    case ZodFirstPartyTypeKind.ZodBoolean:
      return fc.boolean();
    case ZodFirstPartyTypeKind.ZodDate:
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    case ZodFirstPartyTypeKind.ZodLiteral:
      return fc.constant(def.value);
    case ZodFirstPartyTypeKind.ZodEnum:
      return fc.constantFrom(...(def.values as unknown[]));
    case ZodFirstPartyTypeKind.ZodNativeEnum:
      return fc.constantFrom(...Object.values(def.values as object));
    case ZodFirstPartyTypeKind.ZodNull:
      return fc.constant(null);
    case ZodFirstPartyTypeKind.ZodUndefined:
    case ZodFirstPartyTypeKind.ZodVoid:
      return fc.constant(undefined);
    case ZodFirstPartyTypeKind.ZodObject: {
      const shape = (typeof def.shape === 'function' ? def.shape() : def.shape) as Record<string, ZodTypeAny>;
      const entries = Object.entries(shape).map(
        ([key, value]) => [key, arbitraryOf(value, depth + 1)] as const,
      );
      const optional = Object.entries(shape)
        .filter(([, value]) => value.isOptional())
        .map(([key]) => key);
      return fc.record(Object.fromEntries(entries), { requiredKeys: requiredOf(shape, optional) });
    }
    case ZodFirstPartyTypeKind.ZodArray: {
      const min = def.exactLength?.value ?? def.minLength?.value ?? 0;
      const max = def.exactLength?.value ?? def.maxLength?.value ?? min + 3;
      return depth > MAX_DEPTH
        ? fc.constant([])
        : fc.array(arbitraryOf(def.type, depth + 1), { minLength: min, maxLength: Math.min(max, min + 5) });
    }
    case ZodFirstPartyTypeKind.ZodTuple:
      return fc.tuple(...(def.items as ZodTypeAny[]).map((item) => arbitraryOf(item, depth + 1)));
    case ZodFirstPartyTypeKind.ZodRecord:
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 12 }),
        arbitraryOf(def.valueType, depth + 1),
        {
          maxKeys: 4,
        },
      );
    case ZodFirstPartyTypeKind.ZodUnion:
    case ZodFirstPartyTypeKind.ZodDiscriminatedUnion: {
      const options = (def.options instanceof Map ? [...def.options.values()] : def.options) as ZodTypeAny[];
      return fc.oneof(...options.map((option) => arbitraryOf(option, depth + 1)));
    }
    case ZodFirstPartyTypeKind.ZodIntersection:
      return fc
        .tuple(arbitraryOf(def.left, depth + 1), arbitraryOf(def.right, depth + 1))
        .map(([left, right]) => (isObject(left) && isObject(right) ? { ...left, ...right } : left));
    case ZodFirstPartyTypeKind.ZodOptional:
      return fc.option(arbitraryOf(def.innerType, depth), { nil: undefined, freq: 4 });
    case ZodFirstPartyTypeKind.ZodNullable:
      return fc.option(arbitraryOf(def.innerType, depth), { nil: null, freq: 4 });
    case ZodFirstPartyTypeKind.ZodDefault:
    case ZodFirstPartyTypeKind.ZodCatch:
    case ZodFirstPartyTypeKind.ZodReadonly:
      return arbitraryOf(def.innerType, depth);
    case ZodFirstPartyTypeKind.ZodBranded:
      return arbitraryOf(def.type, depth);
    case ZodFirstPartyTypeKind.ZodEffects:
      return arbitraryOf(def.schema, depth);
    case ZodFirstPartyTypeKind.ZodPipeline:
      return arbitraryOf(def.in, depth);
    case ZodFirstPartyTypeKind.ZodLazy:
      return depth > MAX_DEPTH ? fc.constant(null) : arbitraryOf(def.getter(), depth + 1);
    default:
      // any, unknown and the rest: any JSON value.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

interface Check {
  kind: string;
  value?: number;
  regex?: RegExp;
  inclusive?: boolean;
}

function stringOf(checks: Check[]): fc.Arbitrary<string> {
  const min = checks.find((c) => c.kind === 'min' || c.kind === 'length')?.value ?? 0;
  const max = checks.find((c) => c.kind === 'max' || c.kind === 'length')?.value ?? Math.max(min, 40);
  const has = (kind: string) => checks.some((c) => c.kind === kind);
  if (has('email')) return fc.emailAddress();
  if (has('url')) return fc.webUrl();
  if (has('uuid')) return fc.uuid();
  if (has('datetime')) return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  const regex = checks.find((c) => c.kind === 'regex')?.regex;
  if (regex) return fc.stringMatching(regex, { size: 'small' });
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 60), unit: 'grapheme' });
}

function numberOf(checks: Check[]): fc.Arbitrary<number> {
  const bound = (kind: string) => checks.find((c) => c.kind === kind);
  const min = bound('min');
  const max = bound('max');
  const lo = min === undefined ? -1_000_000 : min.value! + (min.inclusive === false ? 1 : 0);
  const hi = max === undefined ? 1_000_000 : max.value! - (max.inclusive === false ? 1 : 0);
  if (checks.some((c) => c.kind === 'int')) {
    return fc.integer({
      min: Math.max(lo, Number.MIN_SAFE_INTEGER),
      max: Math.min(hi, Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

function requiredOf(shape: Record<string, ZodTypeAny>, optional: string[]): string[] {
  return Object.keys(shape).filter((key) => !optional.includes(key));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
