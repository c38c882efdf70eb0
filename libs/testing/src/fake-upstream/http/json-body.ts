import type { IncomingMessage } from 'node:http';

export type BodyResult =
  { ok: true; value: unknown } | { ok: false; reason: 'too_large' | 'invalid_json' | 'aborted' };

/** Reads and parses a JSON body; an empty body parses as undefined. */
export function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        settle({ ok: false, reason: 'too_large' });
        return;
      }
      if (!settled) chunks.push(chunk);
    });
    request.on('end', () => {
      if (settled) return;
      if (size === 0) {
        settle({ ok: true, value: undefined });
        return;
      }
      const text =
        chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      try {
        settle({ ok: true, value: JSON.parse(text) });
      } catch {
        settle({ ok: false, reason: 'invalid_json' });
      }
    });
    request.on('error', () => settle({ ok: false, reason: 'aborted' }));
    request.on('close', () => settle({ ok: false, reason: 'aborted' }));
  });
}
