import { portalLink } from '@vitrine/contract/paths';
import type { Mailer } from '../adapters/mail.ts';
import { conflict, linkInvalid, notFound, validation } from '../http/errors.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { accountKey, clientKey, type LoginThrottleRepository } from './login-throttle.repository.ts';
import { hashNewPassword } from './new-password.ts';
import { countRequest } from './rate-limits.ts';
import type { Settings } from '../settings.ts';
import type { JobRepository } from '../jobs/job.repository.ts';
import type { JobHandler } from '../jobs/job.worker.ts';
import type { UserRecord, UserRepository } from './user.repository.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

/** The reset mail's texts in a language (the portal's translations, with an admin's edits). */
export type ResetMailTexts = (locale: string) => Promise<{ subject: string; body: string }>;

export const PASSWORD_RESET_MAIL_JOB = 'password-reset-mail';

export interface ResetMailPayload {
  name: string;
  /** The language of the request, used when the account has none of its own. */
  locale: string | null;
}

/** Reset mails are counted per hour. */
const RESET_WINDOW_MS = 3600_000;

/** Accounts: password reset for everyone, account administration for the `vitrine users` command. */
export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
    private readonly mailer: Mailer,
    private readonly log: Log,
    private readonly jobs: JobRepository,
    private readonly mailTexts: ResetMailTexts,
    /** The groups accounts may be members of (GroupRights: the settings file's, or the admin area's). */
    private readonly groupNames: () => readonly string[] = () => [
      ...settings.file.groups.map((g) => g.name),
      settings.file.editing.group,
    ],
  ) {}

  /**
   * Queues a reset mail for the account. The answer is the same, and as quick, whether or not the
   * user exists, has an address or the mail can be sent: the job finds all that out, so nobody
   * learns which accounts exist. The mail's text comes from the portal's translations only.
   */
  async forgotPassword(input: { user: string; locale: string | null; client: string }): Promise<{ ok: true }> {
    const { resetMailsPerAccount, resetMailsPerClient } = this.settings.file.login;
    const what = 'password-reset mails';
    const windowMs = RESET_WINDOW_MS;
    await countRequest(this.throttle, {
      key: `reset-${clientKey(input.client)}`,
      max: resetMailsPerClient,
      windowMs,
      what,
    });
    await countRequest(this.throttle, {
      key: `reset-${accountKey(input.user)}`,
      max: resetMailsPerAccount,
      windowMs,
      what,
    });
    const payload: ResetMailPayload = { name: input.user, locale: input.locale };
    await this.jobs.enqueue({
      name: PASSWORD_RESET_MAIL_JOB,
      key: `${PASSWORD_RESET_MAIL_JOB}:${newToken()}`,
      payload,
    });
    return { ok: true };
  }

  /** The job behind forgotPassword: a reset link for a native account with an address, by mail. */
  async sendResetMail(payload: ResetMailPayload): Promise<void> {
    const now = Date.now();
    await this.users.purgeResets(now);
    const user = await this.users.findByName(payload.name);
    if (!user || user.disabled || !user.email || user.authSource !== 'native') return;
    const token = newToken();
    await this.users.createReset(hashToken(token), user.id, now + this.settings.file.login.resetLinkHours * 3600_000);
    const link = portalLink(this.settings.publicUrl, { page: 'resetPassword', token });
    const texts = await this.mailTexts(user.locale ?? payload.locale ?? 'en');
    try {
      await this.mailer.send({ to: user.email, subject: texts.subject, text: texts.body.replaceAll('{link}', link) });
    } catch (err) {
      this.log.warn({ err, user: user.name }, 'the password-reset mail could not be sent');
    }
  }

  async resetPassword(input: { token: string; pass: string }): Promise<{ ok: true }> {
    // Invitation links (people/) are set-password links too, used up the same way.
    const linkGone = () => linkInvalid('This link is invalid, used or expired. Please ask for a new one.');
    const idHash = hashToken(input.token);
    // Only a live link costs a hash; it is used up once the hash is made, so a reset refused for
    // being busy (429) leaves the link to be used again.
    if ((await this.users.liveReset(idHash)) === undefined) throw linkGone();
    const hash = await hashNewPassword(input.pass);
    const userId = await this.users.takeReset(idHash);
    if (userId === undefined) throw linkGone();
    await this.users.setPassword(userId, hash);
    const user = await this.users.findById(userId);
    if (user) await this.throttle.clear(accountKey(user.name));
    return { ok: true };
  }

  private knownGroups(groups: string[]): string[] {
    // The editors group (`editing.group`) is a group of its own, whether or not `groups` names it.
    const known = new Set(this.groupNames());
    const unknown = groups.filter((g) => !known.has(g));
    if (unknown.length) {
      throw validation(`Unknown group(s): ${unknown.join(', ')}. Known groups: ${[...known].join(', ')}.`);
    }
    return [...new Set(groups)];
  }

  private async existing(name: string): Promise<UserRecord> {
    const user = await this.users.findByName(name);
    if (!user) throw notFound(`The user ${name}`);
    return user;
  }

  async add(input: { name: string; password: string; groups: string[]; email?: string }): Promise<number> {
    if (!/^[\p{L}\p{M}\p{N}._@-]{1,256}$/u.test(input.name.normalize('NFC'))) {
      throw validation('A user name has 1 to 256 letters, digits or the characters . _ @ -');
    }
    if (await this.users.findByName(input.name)) throw conflict(`The user ${input.name} exists already.`);
    return this.users.createUser({
      name: input.name,
      email: input.email ?? null,
      passwordHash: await hashNewPassword(input.password),
      groups: this.knownGroups(input.groups),
    });
  }

  async passwd(name: string, password: string): Promise<void> {
    const user = await this.existing(name);
    await this.users.setPassword(user.id, await hashNewPassword(password));
    await this.throttle.clear(accountKey(user.name));
  }

  async setGroups(name: string, groups: string[]): Promise<void> {
    await this.users.setGroups((await this.existing(name)).id, this.knownGroups(groups));
  }

  /** Forgets every address's failed logins and blocks on the account. */
  async unblock(name: string): Promise<void> {
    await this.throttle.clear(accountKey((await this.existing(name)).name));
  }

  async setDisabled(name: string, disabled: boolean): Promise<void> {
    await this.users.setDisabled((await this.existing(name)).id, disabled);
  }

  async list(): Promise<UserRecord[]> {
    return this.users.list();
  }
}

/** The job that sends reset mails, so that the answer to the request does not wait for them. */
export function userJobHandlers(users: UserService): JobHandler[] {
  const mail: JobHandler<ResetMailPayload> = {
    name: PASSWORD_RESET_MAIL_JOB,
    parse: (p) => {
      const { name, locale } = p as Partial<ResetMailPayload>;
      if (typeof name !== 'string') throw new Error('a reset mail job needs a name');
      return { name, locale: typeof locale === 'string' ? locale : null };
    },
    run: (p) => users.sendResetMail(p),
  };
  return [mail] as JobHandler[];
}
