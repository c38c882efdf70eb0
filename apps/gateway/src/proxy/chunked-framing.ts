import type { ServerResponse } from 'node:http';

/** The chunk that ends a chunked body (no trailers). */
export const LAST_CHUNK = '0\r\n\r\n';

const CRLF = Buffer.from('\r\n', 'latin1');

/**
 * Takes HTTP/1.1 chunked framing over from Node for a response whose head is written (`writeHead`)
 * and chunked; false, and nothing changed, for one that is not (a backend's answer with a length,
 * HTTP/1.0, a bodiless status). Node frames every `write` as four writes to the socket (the size, CRLF,
 * the data, CRLF), corked and sent as one writev; framed here, a piece is one Buffer and one write:
 * ~1 µs of CPU and ~200 bytes of garbage less a piece (bench/micro/chunked-write-cost.mjs,
 * bench/ANALYSIS.md h119), per event of every open stream. The caller ends the body with LAST_CHUNK.
 * The head Node wrote still says `Transfer-Encoding: chunked`, so the connection stays kept alive.
 * (relay's FastifyClientReply does the same: apps/relay/src/http/chunked-framing.ts.)
 */
export function frameChunksItself(res: ServerResponse): boolean {
  if (!res.chunkedEncoding) return false;
  res.chunkedEncoding = false;
  return true;
}

/** One chunk of a chunked body in one Buffer: its size in hex, CRLF, the bytes, CRLF. Not empty. */
export function frameChunk(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'), bytes, CRLF]);
}
