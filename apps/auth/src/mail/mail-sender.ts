/** One plain-text message to one recipient. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: over SMTP in production, into a directory of .eml files in embedded mode. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

export const MAIL_SENDER = Symbol('MAIL_SENDER');
