import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { RELAY_UPLOAD_PATHS, type BackendService } from '@tollgate/contracts';

export interface BodyLimits {
  bodyLimitBytes: number;
  apiBodyLimitBytes: number;
  /** Audio uploads to the relay (a 25 MB file and its form fields). */
  uploadBodyLimitBytes: number;
}

/**
 * The largest body a service takes through the gateway: audio uploads get the upload limit, model
 * input (relay's API calls, and the chat's messages, which may carry images as data URLs) the /v1
 * limit, every other /api call the smaller one.
 */
export function bodyLimitFor(service: BackendService, limits: BodyLimits, path = ''): number {
  if (service === 'relay' && RELAY_UPLOAD_PATHS.includes(path)) return limits.uploadBodyLimitBytes;
  const carriesModelInput = service === 'relay' || service === 'chat';
  return carriesModelInput
    ? limits.bodyLimitBytes
    : Math.min(limits.apiBodyLimitBytes, limits.bodyLimitBytes);
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body is larger than ${limit} bytes`);
  }
}

/** Whether the request declares a Content-Length over the limit: refused before anything is read. */
export function declaredOverLimit(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

/**
 * Whether the request's body, if it has one, declares its length: then Node's parser delivers no more
 * than that, so a length at or under the limit (declaredOverLimit) holds the body to it without counting.
 * A chunked body (Transfer-Encoding) must be counted on the way (limitedBody).
 */
export function bodyLengthDeclared(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] === undefined;
}

/**
 * The request body as it should be forwarded. A declared Content-Length over the limit is refused
 * before anything is read (null); a body without one is counted on the way and cut at the limit.
 */
export function limitedBody(req: IncomingMessage, limit: number): Readable | null {
  if (req.headers['content-length'] !== undefined) return declaredOverLimit(req, limit) ? null : req;
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > limit) cb(new BodyTooLargeError(limit));
      else cb(null, chunk);
    },
  });
  req.on('error', (err) => counter.destroy(err));
  return req.pipe(counter);
}
