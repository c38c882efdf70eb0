import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Bytes of a body sent without Content-Length (chunked), counted while it was read. */
const COUNTED_BYTES = new WeakMap<FastifyRequest, number>();

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
      // No body under a JSON content type is "no body" (routes that need one say so), as elsewhere.
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, done);
    },
  );
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
