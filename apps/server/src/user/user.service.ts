import { hashPassword } from '../adapters/password.ts';
import type { Mailer } from '../adapters/mail.ts';
import { conflict, notFound, validation } from '../http/errors.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { LoginThrottleRepository } from './login-throttle.repository.ts';
import type { Settings } from '../settings.ts';
import type { UserRecord, UserRepository } from './user.repository.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

/** Where the link of a reset mail goes in its body: `{link}` or `{0}`, else appended. */
export function mailBodyWithLink(body: string, link: string): string {
  if (/\{link\}|\{0\}/.test(body)) return body.replace(/\{link\}|\{0\}/g, link);
  return `${body.trimEnd()}\n\n${link}\n`;
}

/** Accounts: password reset for everyone, account administration for the `vitrine users` command. */
export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
    private readonly mailer: Mailer,
    private readonly log: Log,
  ) {}

  /**
   * Sends a reset link to the user's mail address. The answer is the same whether or not the user
   * exists, has an address or the mail could be sent, so nobody learns which accounts exist.
   */
  async forgotPassword(input: { user: string; mail_subject: string; mail_body: string }): Promise<{ ok: true }> {
    const user = await this.users.findByName(input.user);
    if (!user || user.disabled || !user.email || user.authSource !== 'native') return { ok: true };
    const token = newToken();
    const expiresAt = Date.now() + this.settings.file.login.resetLinkHours * 3600_000;
    await this.users.createReset(hashToken(token), user.id, expiresAt);
    const link = `${this.settings.publicUrl.replace(/\/$/, '')}/#/reset-password?token=${token}`;
    try {
      await this.mailer.send({
        to: user.email,
        subject: input.mail_subject,
        text: mailBodyWithLink(input.mail_body, link),
      });
    } catch (err) {
      this.log.warn({ err, user: user.name }, 'the password-reset mail could not be sent');
    }
    return { ok: true };
  }

  async resetPassword(input: { token: string; pass: string }): Promise<{ ok: true }> {
    const userId = await this.users.takeReset(hashToken(input.token));
    if (userId === undefined) {
      throw validation('This password-reset link is invalid, used or expired. Please ask for a new one.', [
        { path: 'body.token', message: 'is invalid, used or expired' },
      ]);
    }
    await this.users.setPassword(userId, await hashPassword(input.pass));
    const user = await this.users.findById(userId);
    if (user) await this.throttle.clear(user.name);
    return { ok: true };
  }

  private knownGroups(groups: string[]): string[] {
    const known = new Set(this.settings.file.groups.map((g) => g.name));
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
    if (!/^[\p{L}\p{N}._@-]{1,256}$/u.test(input.name)) {
      throw validation('A user name has 1 to 256 letters, digits or the characters . _ @ -');
    }
    if (await this.users.findByName(input.name)) throw conflict(`The user ${input.name} exists already.`);
    return this.users.createUser({
      name: input.name,
      email: input.email ?? null,
      passwordHash: await hashPassword(input.password),
      groups: this.knownGroups(input.groups),
    });
  }

  async passwd(name: string, password: string): Promise<void> {
    const user = await this.existing(name);
    await this.users.setPassword(user.id, await hashPassword(password));
    await this.throttle.clear(user.name);
  }

  async setGroups(name: string, groups: string[]): Promise<void> {
    await this.users.setGroups((await this.existing(name)).id, this.knownGroups(groups));
  }

  async setDisabled(name: string, disabled: boolean): Promise<void> {
    await this.users.setDisabled((await this.existing(name)).id, disabled);
  }

  async list(): Promise<UserRecord[]> {
    return this.users.list();
  }
}
