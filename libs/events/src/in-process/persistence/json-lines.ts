const NEWLINE = 0x0a;

export interface ParsedJsonLines<T> {
  entries: T[];
  /** Bytes up to the end of the last intact line; anything after it is a torn write. */
  intactBytes: number;
}

/**
 * Parses an append-only JSON-lines file. A crash mid-append can leave a torn tail (a last line
 * without its newline, or garbage after the last good line); that tail is ignored and reported
 * through `intactBytes` so the caller can cut it off. A bad line followed by good ones is not a
 * torn write but corruption, and throws.
 */
export function parseJsonLines<T>(
  data: Buffer,
  decode: (value: unknown) => T,
  source: string,
): ParsedJsonLines<T> {
  const entries: T[] = [];
  let intactBytes = 0;
  let firstBadLine: { start: number; reason: string } | undefined;
  let start = 0;
  while (start < data.length) {
    const end = data.indexOf(NEWLINE, start);
    if (end === -1) break; // unterminated last line: torn
    const line = data.subarray(start, end).toString('utf8').trim();
    if (line.length > 0) {
      const entry = decodeLine(line, decode);
      if ('error' in entry) {
        firstBadLine ??= { start, reason: entry.error };
      } else if (firstBadLine) {
        throw new Error(
          `${source}: corrupt line at byte ${firstBadLine.start} (${firstBadLine.reason}) before intact data`,
        );
      } else {
        entries.push(entry.value);
      }
    }
    if (!firstBadLine) intactBytes = end + 1;
    start = end + 1;
  }
  return { entries, intactBytes };
}

function decodeLine<T>(line: string, decode: (value: unknown) => T): { value: T } | { error: string } {
  try {
    return { value: decode(JSON.parse(line)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
