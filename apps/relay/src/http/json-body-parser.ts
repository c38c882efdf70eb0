import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';

/** Bytes of a body sent without Content-Length (chunked), counted while it was read. */
const COUNTED_BYTES = new WeakMap<FastifyRequest, number>();

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

/**
 * Fastify's own JSON parser (same poisoning protection), which also notes the size of a chunked body:
 * the reservation bounds a prompt by its bytes, and re-serialising the parsed body to learn them would
 * cost an allocation as large as the body on every such call.
 */
export function registerJsonBodyParser(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    function parseJsonCountingBytes(request, body, done) {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (declaredLength(request) === undefined) COUNTED_BYTES.set(request, Buffer.byteLength(text));
      parseJsonText(parseJson, request, text, done);
    },
  );
}

// No body under a JSON content type is "no body" (routes that need one say so), as elsewhere.
function parseJsonText(
  parseJson: JsonParser,
  request: FastifyRequest,
  text: string,
  done: (error: Error | null, body?: unknown) => void,
): void {
  if (text.trim() === '') {
    done(null, undefined);
    return;
  }
  parseJson(request, text, done);
}

/** Content types read by `JsonBodyReader` (what clients send); any other goes through Fastify's parsers. */
const PLAIN_JSON_TYPES = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);

export function isPlainJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && PLAIN_JSON_TYPES.has(contentType.toLowerCase());
}

/**
 * Reads and parses a JSON body outside Fastify's content-type parser, which binds an AsyncResource to
 * every request it parses (the profile's `deprecate`/`bind` frames). The same answers as that path:
 * Fastify's own errors (413 over `limit`, declared or counted; 400 when the body does not match its
 * Content-Length, is not JSON or poisons a prototype), an empty body taken as none, the chunked body's
 * size noted for `bodyBytesOf`. Sizes are counted on the decoded text, as Fastify's string parsers do.
 * The promise keeps the caller's async context (request id, trace) across the socket's events.
 */
export class JsonBodyReader {
  private readonly parseJson: JsonParser;

  constructor(
    scope: FastifyInstance,
    private readonly limit: number,
  ) {
    this.parseJson = scope.getDefaultJsonParser('error', 'error');
  }

  read(request: FastifyRequest): Promise<unknown> {
    const { limit, parseJson } = this;
    return new Promise((resolve, reject) => {
      const declared = declaredLength(request);
      if (declared !== undefined && declared > limit) {
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      const raw = request.raw;
      const chunks: Buffer[] = [];
      let received = 0;
      const stop = () => {
        raw.removeListener('data', onData);
        raw.removeListener('end', onEnd);
        raw.removeListener('error', onEnd);
      };
      function onData(chunk: Buffer): void {
        received += chunk.length;
        // The decoded text is never shorter than its bytes (a malformed sequence becomes U+FFFD, 3 bytes),
        // so a body over the limit on the wire is over it decoded; the decoded size is checked at the end.
        if (received > limit) {
          stop();
          reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
          return;
        }
        chunks.push(chunk);
      }
      function onEnd(error?: Error & { statusCode?: number }): void {
        stop();
        if (error != null) {
          if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
          reject(error);
          return;
        }
        const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)).toString('utf8');
        const bytes = text.length === received ? received : Buffer.byteLength(text);
        if (bytes > limit) {
          reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
          return;
        }
        if (declared !== undefined && bytes !== declared) {
          reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
          return;
        }
        if (declared === undefined) COUNTED_BYTES.set(request, bytes);
        parseJsonText(parseJson, request, text, (parseError, body) =>
          parseError === null ? resolve(body) : reject(parseError),
        );
      }
      raw.on('data', onData);
      raw.on('end', onEnd);
      raw.on('error', onEnd);
    });
  }
}

function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  const length = header === undefined ? NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** The request body's size in bytes: its Content-Length (Fastify holds the body to it), else as counted. */
export function bodyBytesOf(request: FastifyRequest): number {
  return declaredLength(request) ?? COUNTED_BYTES.get(request) ?? 0;
}
