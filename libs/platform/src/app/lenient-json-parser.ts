import type { FastifyInstance } from 'fastify';

/**
 * Fastify's own JSON parser (same poisoning protection), except that a POST without a body that
 * still says `Content-Type: application/json` is taken as "no body" instead of refused: curl with
 * `-H 'Content-Type: application/json'` and several HTTP wrappers send exactly that to calls that
 * take none, and new-api accepts it. A route that needs a body still refuses the missing one.
 */
export function installLenientJsonParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
