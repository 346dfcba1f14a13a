import type { CallParsedBody, CallParsedQuery } from '@vitrine/contract/call';
import type { createPersonCall, deletePersonCall, peopleCall, updatePersonCall } from '@vitrine/contract/people';
import type { PeopleAnswer, PersonAnswer, Person } from '@vitrine/contract/people';
import { personIdSchema } from '@vitrine/contract/people';
import { portalLink } from '@vitrine/contract/paths';
import type { Mailer } from '../adapters/mail.ts';
import { requireGuiAdmin, type Auth } from '../auth/caller.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { conflict, lastAdmin, notFound, ownAdmin, validation } from '../http/errors.ts';
import type { Settings } from '../settings.ts';
import { accountKey, type LoginThrottleRepository } from '../user/login-throttle.repository.ts';
import type { UserRepository } from '../user/user.repository.ts';
import type { PeopleRepository, PersonRow } from './people.repository.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

/** The kinds of set-password link a mail carries. */
export type LinkPurpose = 'reset' | 'invitation';

/** A set-password mail's texts in a language (the portal's translations, with an admin's edits). */
export type LinkMailTexts = (purpose: LinkPurpose, locale: string) => Promise<{ subject: string; body: string }>;

/**
 * The groups the People calls know: which exist and which carry admin rights. A function, so the
 * groups the admin area keeps apply without a restart.
 */
export interface GroupCatalogue {
  known(): Promise<string[]>;
  adminGroups(): Promise<string[]>;
}

const NAME = /^[\p{L}\p{M}\p{N}._@-]{1,256}$/u;

/**
 * Accounts in the admin area (issue #50, docs/security.md "People"): list and search, invite,
 * change groups and details, disable, unblock, send a link, remove. Only GUI admins may; no admin
 * may take their own admin rights or account, and the last enabled admin stays.
 */
export class PeopleService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly users: UserRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
    private readonly groups: GroupCatalogue,
    private readonly mailer: Mailer,
    private readonly mailTexts: LinkMailTexts,
    private readonly log: Log,
  ) {}

  async list(auth: Auth, query: CallParsedQuery<typeof peopleCall>): Promise<PeopleAnswer> {
    requireGuiAdmin(auth);
    const { rows, more } = await this.people.list(query, Date.now());
    return { people: rows, offset: query.offset, limit: query.limit, more };
  }

  async get(auth: Auth, idParam: string | undefined): Promise<PersonAnswer> {
    requireGuiAdmin(auth);
    const person = await this.existing(idParam);
    return { person, belongings: await this.people.belongings(person.id) };
  }

  async create(
    auth: Auth,
    body: CallParsedBody<typeof createPersonCall>,
  ): Promise<{ person: Person; mailSent: boolean }> {
    requireGuiAdmin(auth);
    if (!NAME.test(body.name.normalize('NFC'))) {
      throw validation('A user name has 1 to 256 letters, digits or the characters . _ @ -', [
        { path: 'body.name', message: 'has letters, digits or . _ @ - only' },
      ]);
    }
    const groups = await this.knownGroups(body.groups);
    if (await this.users.findByName(body.name)) throw conflict(`The user name ${body.name} is taken already.`);
    const id = await this.users.createUser({
      name: body.name,
      email: body.email,
      displayName: body.displayName?.trim() || null,
      passwordHash: null,
      groups,
    });
    const mailSent = await this.mailLink(id, 'invitation');
    return { person: await this.present(id), mailSent };
  }

  async update(
    auth: Auth,
    idParam: string | undefined,
    body: CallParsedBody<typeof updatePersonCall>,
  ): Promise<{ person: Person; mailSent?: boolean }> {
    requireGuiAdmin(auth);
    const person = await this.existing(idParam);
    const groups = body.groups === undefined ? undefined : await this.knownGroups(body.groups);
    const self = auth.userId === person.id;
    const admins = await this.groups.adminGroups();
    if (self && body.disabled === true) throw ownAdmin('You cannot disable your own account.');
    if (self && groups !== undefined) {
      const kept = [...person.groups.filter((g) => g.fromProvider).map((g) => g.name), ...groups];
      if (!kept.some((g) => admins.includes(g))) {
        throw ownAdmin('You cannot take yourself out of the groups with admin rights. Ask another admin to do it.');
      }
    }
    if (
      groups !== undefined ||
      body.displayName !== undefined ||
      body.email !== undefined ||
      body.disabled !== undefined
    ) {
      await this.people.guarded(
        admins,
        async (trx) => {
          if (groups !== undefined) await this.people.setGroups(trx, person.id, groups);
          await this.people.setDetails(trx, person.id, {
            displayName: body.displayName === undefined ? undefined : body.displayName?.trim() || null,
            email: body.email,
          });
          if (body.disabled !== undefined) await this.people.setDisabled(trx, person.id, body.disabled);
        },
        () => lastAdmin('This is the last enabled account with admin rights: it must stay an enabled admin.'),
      );
    }
    if (body.unblock) await this.throttle.clear(accountKey(person.name));
    let mailSent: boolean | undefined;
    if (body.sendLink) {
      const now = await this.present(person.id);
      if (now.login !== 'native') {
        throw conflict(`${person.name} logs in with ${now.login}: the password is the identity provider's business.`);
      }
      if (!now.email) throw conflict(`${person.name} has no mail address to send a link to.`);
      if (now.disabled) throw conflict(`${person.name} is disabled: enable the account before sending it a link.`);
      mailSent = await this.mailLink(person.id, now.invited ? 'invitation' : 'reset');
    }
    return { person: await this.present(person.id), ...(mailSent === undefined ? {} : { mailSent }) };
  }

  async remove(
    auth: Auth,
    idParam: string | undefined,
    confirmed: CallParsedQuery<typeof deletePersonCall>,
  ): Promise<{ removed: { bookmarks: number; shareLinks: number } }> {
    requireGuiAdmin(auth);
    const person = await this.existing(idParam);
    if (auth.userId === person.id) throw ownAdmin('You cannot remove your own account. Ask another admin to do it.');
    const removed = await this.people.guarded(
      await this.groups.adminGroups(),
      async (trx) => {
        const belongings = await this.people.belongings(person.id, trx);
        if (belongings.bookmarks !== confirmed.bookmarks || belongings.shareLinks !== confirmed.shareLinks) {
          throw conflict(
            `${person.name} now has ${belongings.bookmarks} bookmarks and ${belongings.shareLinks} share links; please confirm again.`,
          );
        }
        await this.people.remove(trx, person.id);
        return belongings;
      },
      () => lastAdmin('This is the last enabled account with admin rights: it cannot be removed.'),
    );
    await this.throttle.clear(accountKey(person.name));
    return { removed };
  }

  /**
   * Mails a one-time set-password link: an invitation (`login.invitationHours`) or a reset
   * (`login.resetLinkHours`). A mail that cannot be sent is logged and answered as not sent; the
   * link stays until it expires, and a new one can be sent.
   */
  private async mailLink(id: number, purpose: LinkPurpose): Promise<boolean> {
    const user = await this.users.findById(id);
    if (!user?.email) return false;
    const { invitationHours, resetLinkHours } = this.settings.file.login;
    const hours = purpose === 'invitation' ? invitationHours : resetLinkHours;
    const now = Date.now();
    await this.users.purgeResets(now);
    // The latest mail's link is the one that works: an earlier one, perhaps sent to an old address, ends.
    await this.users.dropLinks(id, purpose);
    const token = newToken();
    await this.users.createReset(hashToken(token), id, now + hours * 3600_000, purpose);
    const link = portalLink(this.settings.publicUrl, { page: 'resetPassword', token });
    const texts = await this.mailTexts(purpose, user.locale ?? 'en');
    try {
      await this.mailer.send({ to: user.email, subject: texts.subject, text: texts.body.replaceAll('{link}', link) });
      return true;
    } catch (err) {
      this.log.warn({ err, user: user.name, purpose }, 'a set-password mail could not be sent');
      return false;
    }
  }

  private async knownGroups(groups: string[]): Promise<string[]> {
    const known = await this.groups.known();
    const unknown = groups.filter((g) => !known.includes(g));
    if (unknown.length) {
      throw validation(`Unknown group(s): ${unknown.join(', ')}. Known groups: ${known.join(', ')}.`, [
        { path: 'body.groups', message: `names unknown groups: ${unknown.join(', ')}` },
      ]);
    }
    return [...new Set(groups)];
  }

  private async existing(idParam: string | undefined): Promise<PersonRow> {
    const id = personIdSchema.safeParse(idParam);
    if (!id.success) {
      throw validation('The account id must be a positive whole number.', [
        { path: 'params.id', message: 'is not an account id' },
      ]);
    }
    const person = await this.people.byId(id.data, Date.now());
    if (!person) throw notFound(`The account ${id.data}`);
    return person;
  }

  private async present(id: number): Promise<PersonRow> {
    const person = await this.people.byId(id, Date.now());
    if (!person) throw notFound(`The account ${id}`);
    return person;
  }
}
