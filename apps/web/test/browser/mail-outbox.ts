import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

function decodedBody(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).trim();
  if (/^content-transfer-encoding:\s*base64/im.test(headers)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  if (/^content-transfer-encoding:\s*quoted-printable/im.test(headers)) {
    return body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return body;
}

/** Waits for a mail to `to` in the embedded platform's outbox and returns its 6-digit code. */
export async function mailedCode(dataDir: string, to: string, timeoutMs = 15_000): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = (await readdir(outbox).catch(() => [] as string[]))
      .filter((n) => n.endsWith('.eml'))
      .sort();
    for (const name of names.reverse()) {
      const raw = await readFile(join(outbox, name), 'utf8');
      if (/^To:\s*(.+)$/im.exec(raw)?.[1]?.trim() !== to) continue;
      const code = /\b(\d{6})\b/.exec(decodedBody(raw))?.[1];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no code mailed to ${to} within ${timeoutMs} ms`);
}
