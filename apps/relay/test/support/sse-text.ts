/** The `data:` payloads of an SSE body, in order (tests read whole bodies; the relay never does). */
export function sseData(body: string): string[] {
  return body
    .split(/\r?\n\r?\n/)
    .flatMap((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')))
    .map((line) => line.slice(5).trim());
}

/** The `event:` names of an SSE body, in order. */
export function sseEventNames(body: string): string[] {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('event:'))
    .map((line) => line.slice(6).trim());
}
