import type { Command } from 'commander';
import type { z } from 'zod';
import { changeGroupBodySchema, createGroupBodySchema, type GroupEntry } from '@vitrine/contract/groups';
import { DomainError, validation } from '../http/errors.ts';
import { commandLine, type GroupService } from '../group/group.service.ts';
import { openServices } from '../services.ts';
import { loadSettings } from '../settings.ts';

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const setIds = (value: string) =>
  list(value).map((v) => {
    if (!/^\d{1,9}$/.test(v)) throw validation(`--sets: ${v} is not the number of a conversion set.`);
    return Number(v);
  });

/** The flags `add` and `set` share: each given one sets that right, a left-out one leaves it. */
interface RightsFlags {
  portal?: boolean;
  admin?: boolean;
  sets?: string;
  share?: boolean;
  editors?: boolean;
  fields?: string;
}

function rightsOf(flags: RightsFlags) {
  return {
    ...(flags.portal === undefined ? {} : { portalAccess: flags.portal }),
    ...(flags.admin === undefined ? {} : { guiAdmin: flags.admin }),
    ...(flags.sets === undefined ? {} : { downloadSets: setIds(flags.sets) }),
    ...(flags.share === undefined ? {} : { shareLinks: flags.share }),
    ...(flags.editors === undefined ? {} : { editors: flags.editors }),
    ...(flags.fields === undefined ? {} : { fields: list(flags.fields) }),
  };
}

/** A request checked as the admin area's call checks it, so the command and the browser refuse alike. */
function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw validation(`${issue?.path.map(String).join('.') || 'the group'}: ${issue?.message ?? 'is invalid'}`);
}

function line(g: GroupEntry): string {
  const rights = [
    g.portalAccess ? 'portal' : '',
    g.guiAdmin ? 'admin' : '',
    g.shareLinks ? 'share' : '',
    g.editors ? 'editors' : '',
  ].filter(Boolean);
  return [
    g.name,
    rights.join(',') || '-',
    `sets:${g.downloadSets.join(',') || '-'}`,
    `fields:${g.fields.join(',') || '-'}`,
    `accounts:${g.accounts}`,
    `assets:${g.assets}`,
  ].join('\t');
}

async function withGroups(task: (groups: GroupService) => Promise<void>): Promise<void> {
  const services = await openServices(loadSettings());
  try {
    await task(services.groups);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  } finally {
    await services.close();
  }
}

function rightsOptions(command: Command): Command {
  return command
    .option('--portal', 'members may use the portal')
    .option('--no-portal', 'members may not use the portal')
    .option('--admin', 'members are admins')
    .option('--no-admin', 'members are not admins')
    .option('--sets <ids>', 'conversion sets members may download in, comma-separated (0: the original)')
    .option('--share', 'members may make share links')
    .option('--no-share', 'members may not make share links')
    .option('--editors', 'members are editors')
    .option('--no-editors', 'members are not editors')
    .option('--fields <names>', 'audience-limited fields members see, comma-separated');
}

/**
 * `vitrine groups …`: user groups and their rights, as the admin area changes them (decision 0260):
 * the first change stores the settings file's groups, and from then on the stored ones decide.
 */
export function groupsCommand(program: Command): void {
  const groups = program.command('groups').description('manage user groups and their rights');

  groups
    .command('list')
    .description('list groups: rights, download sets, fields, accounts and assets naming each')
    .action(async () =>
      withGroups(async (g) => {
        const answer = await g.list(commandLine);
        for (const group of answer.groups) process.stdout.write(`${line(group)}\n`);
      }),
    );

  rightsOptions(
    groups.command('add <name>').description('create a group (default: portal access, the original file)'),
  ).action(async (name: string, flags: RightsFlags) =>
    withGroups(async (g) => {
      const body = parsed(createGroupBodySchema, { name, ...rightsOf(flags) });
      await g.create(commandLine, body);
      process.stdout.write(`Added the group ${body.name}.\n`);
    }),
  );

  rightsOptions(groups.command('set <name>').description('change the rights of a group, or rename it'))
    .option('--rename <new>', 'a new name (accounts follow; refused while assets or the settings file name it)')
    .action(async (name: string, flags: RightsFlags & { rename?: string }) =>
      withGroups(async (g) => {
        const body = parsed(changeGroupBodySchema, {
          ...rightsOf(flags),
          ...(flags.rename === undefined ? {} : { name: flags.rename }),
        });
        await g.change(commandLine, name, body);
        process.stdout.write(`Changed the group ${name}.\n`);
      }),
    );

  groups
    .command('remove <name>')
    .description('remove a group (refused while accounts, assets, conversion sets or the settings file name it)')
    .action(async (name: string) =>
      withGroups(async (g) => {
        await g.remove(commandLine, name);
        process.stdout.write(`Removed the group ${name}.\n`);
      }),
    );
}
