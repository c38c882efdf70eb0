import { Readable } from 'node:stream';

type HeaderValues = Record<string, string | string[] | undefined>;

/**
 * An answer's headers as a client compares two answers: one [name, value] pair per value, sorted,
 * leaving out those that differ from answer to answer (`ignore`, lower-case).
 */
export function headersToCompare(
  headers: HeaderValues,
  ignore: readonly string[] = ['date'],
): [string, string][] {
  return Object.entries(headers)
    .filter(([name]) => !ignore.includes(name))
    .flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value ?? '']).map((v): [string, string] => [name, v]),
    )
    .sort();
}

/** A request body of `totalBytes` sent without a declared length (chunked), a kilobyte at a time. */
export function chunkedBody(totalBytes: number, fill = ' '): Readable {
  const chunk = Buffer.alloc(1024, fill);
  let left = totalBytes;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const piece = chunk.subarray(0, Math.min(left, chunk.length));
      left -= piece.length;
      this.push(piece);
    },
  });
}
