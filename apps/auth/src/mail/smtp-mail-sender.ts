import nodemailer, { type Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from './mail-sender';

/** Delivers through an SMTP server given as a URL (smtp:// or smtps://, credentials in it). */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    /** The sender, read at each mail: an operator may change it (SMTPFrom). */
    private readonly from: () => string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from(), ...mail, textEncoding: 'base64' });
  }
}
