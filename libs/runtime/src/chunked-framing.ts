import type { ServerResponse } from 'node:http';

/** The chunk that ends a chunked body (no trailers). */
export const LAST_CHUNK = '0\r\n\r\n';

/**
 * Takes HTTP/1.1 chunked framing over from Node for a response whose head is written (`writeHead`)
 * and chunked; false, and nothing changed, for one that is not (an answer with a length, HTTP/1.0, a
 * bodiless status). Node frames every `write` as four writes to the socket (the size, CRLF, the data,
 * CRLF), corked and sent as one writev; framed here (`frameChunk`), a piece is one write: ~1 µs of CPU
 * and ~200 bytes of garbage less a piece (bench/micro/chunked-write-cost.mjs, bench/ANALYSIS.md h119),
 * per event of every open stream. The caller ends the body with LAST_CHUNK, or destroys the response
 * to cut it short. The head Node wrote still says `Transfer-Encoding: chunked`, so the connection
 * stays kept alive. Relay's streamed answers and the gateway's stream proxy use it.
 */
export function frameChunksItself(res: ServerResponse): boolean {
  if (!res.chunkedEncoding) return false;
  res.chunkedEncoding = false;
  return true;
}

const CRLF = Buffer.from('\r\n', 'latin1');

/**
 * One chunk of a chunked body: its size in hex, CRLF, the piece, CRLF; text stays text (the socket
 * encodes it as it writes), bytes are copied into one Buffer. `piece` must not be empty.
 */
export function frameChunk(piece: string | Buffer): string | Buffer {
  if (typeof piece === 'string') return `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
  return Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`, 'latin1'), piece, CRLF]);
}
