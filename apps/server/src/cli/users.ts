import { Writable } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { createPersonBodySchema } from '@vitrine/contract/people';
import { passwordSchema } from '@vitrine/contract/session';
import { DomainError, validation } from '../http/errors.ts';
import type { Auth } from '../auth/caller.ts';
import { openServices, type Services } from '../services.ts';
import { loadSettings } from '../settings.ts';
import type { UserService } from '../user/user.service.ts';

/** Reads a password from stdin: the first line when piped, typed without echo on a terminal. */
async function readPassword(): Promise<string> {
  let text = '';
  if (process.stdin.isTTY) {
    const muted = new Writable({ write: (_chunk, _enc, done) => done() });
    process.stderr.write('Password: ');
    const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
    text = await rl.question('');
    rl.close();
    process.stderr.write('\n');
  } else {
    for await (const chunk of process.stdin) text += String(chunk);
  }
  const password = text.split(/\r?\n/)[0] ?? '';
  const checked = passwordSchema.safeParse(password);
  if (!checked.success) throw validation(`The password ${checked.error.issues[0]?.message ?? 'is invalid'}.`);
  return password;
}

const splitGroups = (value: string) =>
  value
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);

/**
 * An administrator acting for the command line: the People rules apply to it (no account is left
 * without an enabled admin), but no account of its own is at stake.
 */
const commandLine: Auth = {
  userId: null,
  name: 'vitrine users',
  groups: [],
  isAssetUser: false,
  isGuiAdmin: true,
  sessionId: null,
  locale: null,
  expired: false,
};

/** Opens the database of the configured data folder, runs one account task, and closes it again. */
async function withUsers(task: (users: UserService, services: Services) => Promise<void>): Promise<void> {
  const services = await openServices(loadSettings());
  try {
    await task(services.users, services);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  } finally {
    await services.close();
  }
}

/** `vitrine users …`: native accounts. Passwords come from stdin, never from arguments. */
export function usersCommand(program: Command): void {
  const users = program.command('users').description('manage native user accounts (passwords are read from stdin)');

  users
    .command('add <name>')
    .description('create an account; the password is read from stdin')
    .option('-g, --groups <groups>', 'comma-separated groups', 'users')
    .option('-e, --email <address>', 'mail address for password resets')
    .action(async (name: string, opts: { groups: string; email?: string }) =>
      withUsers(async (u) => {
        const password = await readPassword();
        await u.add({ name, password, groups: splitGroups(opts.groups), email: opts.email });
        process.stdout.write(`Added ${name} (${splitGroups(opts.groups).join(', ')}).\n`);
      }),
    );

  users
    .command('invite <name>')
    .description('create an account without a password and mail it a link to set one (login.invitationHours)')
    .requiredOption('-e, --email <address>', 'where the invitation goes')
    .option('-g, --groups <groups>', 'comma-separated groups', 'users')
    .action(async (name: string, opts: { groups: string; email: string }) =>
      withUsers(async (_u, services) => {
        const body = createPersonBodySchema.safeParse({ name, email: opts.email, groups: splitGroups(opts.groups) });
        if (!body.success) {
          const issue = body.error.issues[0];
          throw validation(`The ${String(issue?.path[0] ?? 'input')} ${issue?.message ?? 'is invalid'}.`);
        }
        const { mailSent } = await services.people.create(commandLine, body.data);
        process.stdout.write(
          mailSent
            ? `Invited ${name}: the link went to ${opts.email}.\n`
            : `Added ${name}, but the invitation could not be sent; see the log, then send it again from the People list.\n`,
        );
      }),
    );

  users
    .command('unblock <name>')
    .description('forget the failed logins that block an account, from every address')
    .action(async (name: string) =>
      withUsers(async (u) => {
        await u.unblock(name);
        process.stdout.write(`${name} unblocked.\n`);
      }),
    );

  users
    .command('passwd <name>')
    .description('set a new password (read from stdin); ends the sessions of the account')
    .action(async (name: string) =>
      withUsers(async (u) => {
        await u.passwd(name, await readPassword());
        process.stdout.write(`Password of ${name} changed.\n`);
      }),
    );

  users
    .command('groups <name> <groups>')
    .description("replace the groups given by hand (comma-separated); a single sign-on provider's groups stay")
    .action(async (name: string, groups: string) =>
      withUsers(async (u) => {
        await u.setGroups(name, splitGroups(groups));
        process.stdout.write(`Groups of ${name}: ${splitGroups(groups).join(', ') || '(none)'}.\n`);
      }),
    );

  users
    .command('list')
    .description('list accounts with their groups')
    .action(async () =>
      withUsers(async (u) => {
        for (const user of await u.list()) {
          const state = user.disabled ? 'disabled' : 'active';
          process.stdout.write(
            `${user.name}\t${user.groups.join(',')}\t${user.authSource}\t${state}\t${user.email ?? ''}\n`,
          );
        }
      }),
    );

  for (const [command, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    users
      .command(`${command} <name>`)
      .description(
        disabled ? 'block an account from logging in and end its sessions' : 'allow a disabled account again',
      )
      .action(async (name: string) =>
        withUsers(async (u) => {
          await u.setDisabled(name, disabled);
          process.stdout.write(`${name} ${disabled ? 'disabled' : 'enabled'}.\n`);
        }),
      );
  }
}
