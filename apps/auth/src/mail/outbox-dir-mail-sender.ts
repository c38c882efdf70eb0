import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from './mail-sender';

/**
 * Without an SMTP server (embedded mode), each message is built exactly as it would be sent and
 * written as an .eml file, openable in any mail client. Written under a temporary name and renamed,
 * so a reader never sees half a message.
 */
export class OutboxDirMailSender implements MailSender {
  private readonly builder: Transporter;

  constructor(
    private readonly directory: string,
    /** The sender, read at each mail: an operator may change it (SMTPFrom). */
    private readonly from: () => string,
  ) {
    this.builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = (await this.builder.sendMail({ from: this.from(), ...mail, textEncoding: 'base64' })) as {
      message: Buffer;
    };
    await mkdir(this.directory, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    const partial = join(this.directory, `.${name}.partial`);
    await writeFile(partial, info.message, { mode: 0o600 });
    await rename(partial, join(this.directory, name));
  }
}
