import fc from 'fast-check';
import type { ZodType } from 'zod';
import type { Identities } from './fuzz-platform';
import type { FuzzRoute } from './route-catalogue';
import { arbitraryOf } from './zod-arbitrary';

/** One request as it goes on the wire: headers as a raw list, so that a name may repeat. */
export interface FuzzRequest {
  method: string;
  /** Path and query string, percent-encoded as sent. */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** What the case does, for the failure report (never the whole body). */
  label: string;
}

type Auth = 'none' | 'user' | 'root' | 'key' | 'junk';

/** A fuzz case before the current identities are filled in. */
export type FuzzCase = (identities: Identities) => FuzzRequest;

const RAW_NUMBER = '__fuzz_raw_number__';

/** Values that are wrong almost anywhere: types, extremes, odd text. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    '',
    0,
    -1,
    -0,
    1.5,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    1e308,
    -1e308,
    2_147_483_648,
    -2_147_483_649,
    [],
    {},
    '\u0000',
    '\uD800',
    '\uFFFF',
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '\r\nx-injected: 1',
    'NaN',
    '1e999',
    'true',
    '__proto__',
  ),
  // Numbers past every integer type: written into the JSON as digits.
  fc
    .constantFrom('99999999999999999999999999999', '-99999999999999999999999999999', '1e400')
    .map((digits) => `${RAW_NUMBER}${digits}`),
  fc.integer(),
  fc.double(),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.nat({ max: 70_000 }).map((length) => 'x'.repeat(length)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.nat({ max: 400 }).map((depth) => nested(depth)),
);

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** The JSON value at every place inside `value`, as a path of keys. */
function placesIn(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => placesIn(item, [...path, i], out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) placesIn(item, [...path, key], out);
  }
  return out;
}

function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  if (replacement === DELETE && rest.length === 0) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head!];
    return copy;
  }
  copy[head!] = replaced(copy[head!], rest, replacement);
  return copy;
}

const DELETE = Symbol('delete');

/** A valid-looking value with one part broken: a wrong value, a removed or a foreign key. */
function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    const places = placesIn(value);
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(value) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.nat({ max: places.length - 1 }), hostileValue)
          .map(([at, hostile]) => replaced(value, places[at]!, hostile)),
      },
      {
        weight: 1,
        arbitrary: fc
          .nat({ max: places.length - 1 })
          .map((at) => (places[at]!.length === 0 ? value : replaced(value, places[at]!, DELETE))),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom('__proto__', 'constructor', 'id', 'user_id', 'quota', 'role', 'x'),
            hostileValue,
          )
          .map(([key, extra]) =>
            value !== null && typeof value === 'object' && !Array.isArray(value)
              ? { ...value, [key]: extra }
              : value,
          ),
      },
    );
  });
}

function toJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(new RegExp(`"${RAW_NUMBER}([^"]*)"`, 'g'), '$1');
}

/** A body: mostly the (mutated) JSON value, else the byte-level faults. */
function bodyOf(value: fc.Arbitrary<unknown>, limit: number): fc.Arbitrary<{ bytes?: Buffer; what: string }> {
  const text = (what: string, s: string) => ({ bytes: Buffer.from(s, 'utf8'), what });
  return fc.oneof(
    { weight: 8, arbitrary: mutated(value).map((v) => text('json', toJson(v))) },
    { weight: 1, arbitrary: fc.constant({ bytes: undefined, what: 'no body' }) },
    { weight: 1, arbitrary: fc.constant(text('empty body', '')) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":}',
          '[1,2,',
          'nul',
          '{"a":1}}',
          "{'a':1}",
          '{"a":1,}',
          '\uFEFF{}',
          '"',
          '1 2',
        )
        .map((s) => text('broken json', s)),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom([0xff, 0xfe], [0xc0, 0x80], [0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80])
        .chain((bad) =>
          fc.constantFrom(
            { bytes: Buffer.from(bad), what: 'invalid utf-8' },
            {
              bytes: Buffer.concat([
                Buffer.from('{"model":"'),
                Buffer.from(bad),
                Buffer.from('","name":"a"}'),
              ]),
              what: 'invalid utf-8 in a json string',
            },
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(5_000, 100_000)
        .map((depth) => text(`${depth} levels of nesting`, '['.repeat(depth) + ']'.repeat(depth))),
    },
    {
      weight: 1,
      arbitrary: fc.constant(text('oversized body', `{"model":"m","pad":"${'x'.repeat(limit + 1024)}"}`)),
    },
  );
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'multipart/form-data',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/xml',
      'application/octet-stream',
      '*/*',
      ';;;',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Headers that proxies and parsers trip over, and duplicates of ones that must be single. */
const oddHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    fc.constantFrom<[string, string]>(
      ['x-forwarded-for', 'not-an-ip, , 999.1.1.1'],
      ['x-forwarded-for', `${'1.1.1.1, '.repeat(200)}1.1.1.1`],
      ['x-real-ip', '::ffff:zz'],
      ['x-request-id', 'a'.repeat(4000)],
      ['x-request-id', '\u00ff\u00fe'],
      ['accept', 'text/event-stream'],
      ['accept-language', 'zz-ZZ;q=abc, *;q=2'],
      ['accept-encoding', 'br;q=1, gzip;q=0, identity;q=0'],
      ['new-api-user', '-1'],
      ['new-api-user', '99999999999999999999'],
      ['new-api-user', 'abc'],
      ['cookie', 'session=; session=other; =;;'],
      ['authorization', 'Bearer'],
      ['authorization', 'Basic Og=='],
      ['x-api-key', ''],
      ['anthropic-version', '1999-01-01'],
      ['origin', 'null'],
      ['host', 'evil.example'],
      ['expect', '100-continue'],
    ),
    fc.tuple(
      fc.constantFrom('x-fuzz', 'x-custom-header', 'x-title'),
      fc.string({ maxLength: 200, unit: 'grapheme-ascii' }),
    ),
  ),
  { maxLength: 3 },
);

const duplicated = fc.boolean();

function authHeaders(auth: Auth, route: FuzzRoute, ids: Identities): [string, string][] {
  const session = (cookie: string, id: number): [string, string][] => [
    ['cookie', `tollgate_session=${cookie}`],
    ['new-api-user', String(id)],
  ];
  switch (auth) {
    case 'none':
      return [];
    case 'user':
      return session(ids.userCookie, ids.userId);
    case 'root':
      return session(ids.rootCookie, ids.rootId);
    case 'junk':
      return [
        ['authorization', 'Bearer sk-not-a-key'],
        ['cookie', 'tollgate_session=forged'],
        ['new-api-user', String(ids.rootId)],
      ];
    case 'key':
      if (route.dialect === 'anthropic') return [['x-api-key', ids.apiKey]];
      if (route.dialect === 'gemini') return [['x-goog-api-key', ids.apiKey]];
      return [['authorization', `Bearer ${ids.apiKey}`]];
  }
}

const pathParam = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 50 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '2147483648',
      '99999999999999999999999',
      '1.5',
      '1e3',
      'abc',
      '%FF%FE',
      '%00',
      '%2e%2e',
      'null',
      '%20',
      encodeURIComponent('\u{1F600}'),
      'x'.repeat(3000),
    ),
  },
);

function modelPath(model: string, route: FuzzRoute): fc.Arbitrary<string> {
  const names = fc.oneof(
    fc.constant(encodeURIComponent(model)),
    fc.constantFrom('unknown-model', 'a%2Fb', '%FF', '..', '', 'x'.repeat(2000)),
  );
  if (route.method !== 'POST') return names;
  return fc
    .tuple(names, fc.constantFrom(':generateContent', ':streamGenerateContent', ':countTokens', '', ':'))
    .map(([name, action]) => `${name}${action}`);
}

function filledPath(route: FuzzRoute, model: string): fc.Arbitrary<string> {
  const parts = route.path
    .split('/')
    .map((part) =>
      part.startsWith(':') ? pathParam : part === '*' ? modelPath(model, route) : fc.constant(part),
    );
  return fc.tuple(...parts).map((filled) => filled.join('/'));
}

function queryOf(schema: ZodType | undefined): fc.Arbitrary<string> {
  const valid = schema ? arbitraryOf(schema) : fc.constant({});
  const pairs = mutated(valid).map((value) => {
    const params = new URLSearchParams();
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        if (Array.isArray(item)) item.forEach((each) => params.append(key, scalar(each)));
        else params.append(key, scalar(item));
      }
    }
    return params.toString();
  });
  const raw = fc.constantFrom(
    '',
    'p=1&p=2',
    'a[b][c]=1',
    'page=%FF%FE',
    'page_size=-1',
    'size=1e9',
    '%',
    '=&&=',
    'key=',
  );
  return fc
    .tuple(fc.oneof({ weight: 4, arbitrary: pairs }, { weight: 1, arbitrary: raw }), fc.boolean())
    .map(([query, both]) => (both ? query : query.split('&').slice(0, 1).join('&')));
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value.startsWith(RAW_NUMBER) ? value.slice(RAW_NUMBER.length) : value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A body for a route with no schema the fuzzer can see: the fields such APIs take, broken in turn. */
function genericBody(route: FuzzRoute, model: string): fc.Arbitrary<unknown> {
  if (route.dialect === 'api') {
    return fc.record(
      {
        id: fc.integer({ min: 1, max: 50 }),
        name: fc.string({ maxLength: 20 }),
        key: fc.string({ maxLength: 20 }),
        value: fc.jsonValue({ maxDepth: 2 }),
        status: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: [] },
    );
  }
  const message = fc.record({
    role: fc.constantFrom('user', 'system', 'assistant'),
    content: fc.string({ maxLength: 40 }),
  });
  const common = {
    model: fc.constantFrom(model, 'unknown-model'),
    stream: fc.boolean(),
    max_tokens: fc.integer({ min: 1, max: 64 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
  };
  switch (route.dialect) {
    case 'anthropic':
      return fc.record(
        { ...common, messages: fc.array(message, { minLength: 1, maxLength: 3 }) },
        { requiredKeys: ['model', 'messages', 'max_tokens'] },
      );
    case 'gemini':
      return fc.record(
        {
          contents: fc.array(
            fc.record({
              role: fc.constantFrom('user', 'model'),
              parts: fc.array(fc.record({ text: fc.string({ maxLength: 40 }) }), {
                minLength: 1,
                maxLength: 2,
              }),
            }),
            { minLength: 1, maxLength: 2 },
          ),
          generationConfig: fc.record({ maxOutputTokens: fc.integer({ min: 1, max: 64 }) }),
        },
        { requiredKeys: ['contents'] },
      );
    default:
      return fc.record(
        {
          ...common,
          messages: fc.array(message, { minLength: 1, maxLength: 3 }),
          prompt: fc.string({ maxLength: 40 }),
          input: fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
          ),
          voice: fc.constantFrom('alloy', ''),
          query: fc.string({ maxLength: 20 }),
          documents: fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
        },
        { requiredKeys: ['model'] },
      );
  }
}

function authFor(route: FuzzRoute): fc.Arbitrary<Auth> {
  return route.dialect === 'api'
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant<Auth>('root') },
        { weight: 3, arbitrary: fc.constant<Auth>('user') },
        { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'junk') },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant<Auth>('key') },
        { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'junk') },
      );
}

/** Fuzz cases for one route: a path, a query, headers and (for a write) a body, each possibly broken. */
export function casesFor(route: FuzzRoute, model: string, bodyLimit: number): fc.Arbitrary<FuzzCase> {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const body = hasBody
    ? bodyOf(route.body ? arbitraryOf(route.body) : genericBody(route, model), bodyLimit)
    : fc.oneof(
        { weight: 5, arbitrary: fc.constant({ bytes: undefined, what: 'no body' }) },
        { weight: 1, arbitrary: bodyOf(fc.jsonValue(), bodyLimit) },
      );
  return fc
    .record({
      path: filledPath(route, model),
      query: queryOf(route.query),
      auth: authFor(route),
      body,
      contentType,
      odd: oddHeaders,
      duplicateContentType: duplicated,
    })
    .map((c) => {
      const sent = c.body.bytes !== undefined && c.contentType !== undefined;
      const label = `${route.method} ${c.path.slice(0, 120)}${c.query ? `?${c.query.slice(0, 160)}` : ''} as ${c.auth}; ${c.body.what}, ${c.body.bytes?.length ?? 0} bytes${sent ? `, content-type ${JSON.stringify(c.contentType)}${c.duplicateContentType ? ' and text/plain' : ''}` : ''}${c.odd.length ? `; also ${c.odd.map(([k, v]) => `${k}: ${v.slice(0, 60)}`).join(' | ')}` : ''}`;
      const build = (ids: Identities): FuzzRequest => {
        const headers: [string, string][] = [...authHeaders(c.auth, route, ids), ...c.odd];
        if (c.body.bytes !== undefined && c.contentType !== undefined) {
          headers.push(['content-type', c.contentType]);
          if (c.duplicateContentType) headers.push(['content-type', 'text/plain']);
        }
        return {
          method: route.method,
          target: c.query ? `${c.path}?${c.query}` : c.path,
          headers,
          ...(c.body.bytes !== undefined ? { body: c.body.bytes } : {}),
          label,
        };
      };
      // fast-check prints a failing case with this: what was sent, not the builder's source.
      return Object.assign(build, { [fc.toStringMethod]: () => label });
    });
}
