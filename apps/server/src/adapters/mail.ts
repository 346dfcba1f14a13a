import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailSettings {
  from: string;
  smtpUrl?: string;
  outbox: string;
}

interface Log {
  info(obj: object, msg: string): void;
}

/**
 * Mail over SMTP (nodemailer). Without SMTP settings every mail is written as an .eml file to the
 * outbox folder and logged, so nothing is lost and demos work (ARCHITECTURE §3 "Mail").
 */
export function createMailer(settings: MailSettings, log: Log): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return {
      send: async (mail) => {
        await transport.sendMail({ from: settings.from, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (mail) => {
      const info = await transport.sendMail({ from: settings.from, ...mail });
      // Mails carry reset links, as good as passwords: only the server's own user may read them.
      mkdirSync(settings.outbox, { recursive: true, mode: 0o700 });
      const file = path.join(settings.outbox, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: mail.to, subject: mail.subject, file }, 'no SMTP configured: mail written to the outbox');
    },
  };
}
