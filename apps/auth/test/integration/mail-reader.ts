import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The body of a single-part message, decoded from base64 or left as written. */
export function decodedBody(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).trim();
  return /^content-transfer-encoding:\s*base64/im.test(headers)
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : body;
}

export const recipientOf = (raw: string): string | undefined => /^To:\s*(.+)$/im.exec(raw)?.[1]?.trim();

/** The 6-digit code in a verification mail. */
export function codeIn(raw: string): string {
  const code = /\b(\d{6})\b/.exec(decodedBody(raw))?.[1];
  if (!code) throw new Error('no 6-digit code in the message');
  return code;
}

/** Every .eml file in the outbox directory addressed to `to`, oldest first. */
export async function outboxMailsTo(directory: string, to: string): Promise<string[]> {
  const names = (await readdir(directory).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8')));
  return mails.filter((raw) => recipientOf(raw) === to);
}
