import type { MessageSet } from '@vitrine/contract/config';
import type { ErrorBody } from '@vitrine/contract/errors';

/** The text keys of the password-reset mail in a translation set. */
export const RESET_MAIL_KEYS = {
  subject: 'views.login.reset.mail_subject',
  body: 'views.login.reset.mail_body',
} as const;

/** The text keys of the invitation mail an admin's new account gets (issue #50). */
export const INVITATION_MAIL_KEYS = {
  subject: 'views.login.invite.mail_subject',
  body: 'views.login.invite.mail_body',
} as const;

const LINK = '{link}';
// Anything a mail program shows as a link: a scheme with `//`, `www.`, or a mail address link.
const ADDRESS = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:/i;

/** The text at a dotted key of a message set; undefined when it is missing. */
export function messageAt(set: MessageSet, key: string): string | undefined {
  let node: string | MessageSet | undefined = set;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/**
 * What is wrong with the reset mail's texts of a translation set an admin saves: the body must
 * carry the `{link}` the server fills in, and neither it nor the subject another address, so the
 * mail that leads to setting a password can only lead to the portal. Missing keys are fine (the
 * bundled texts are used).
 */
export function resetMailProblems(set: MessageSet): NonNullable<ErrorBody['details']> {
  const problems: NonNullable<ErrorBody['details']> = [];
  for (const key of [
    RESET_MAIL_KEYS.subject,
    RESET_MAIL_KEYS.body,
    INVITATION_MAIL_KEYS.subject,
    INVITATION_MAIL_KEYS.body,
  ]) {
    const text = messageAt(set, key);
    if (text === undefined) continue;
    const path = `body.${key}`;
    if ((key === RESET_MAIL_KEYS.body || key === INVITATION_MAIL_KEYS.body) && !text.includes(LINK)) {
      problems.push({ path, message: `must contain ${LINK}, where the reset link goes` });
    }
    const address = ADDRESS.exec(text.replaceAll(LINK, ''));
    if (address) {
      problems.push({ path, message: `may contain no address but ${LINK} (found "${address[0]}")` });
    }
  }
  return problems;
}
