import { Command } from 'commander';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import { usersCommand } from './users.ts';

/** The `vitrine` command: administration tasks that run beside or without the server. */
export function buildCli(): Command {
  const program = new Command();
  program
    .name('vitrine')
    .description('Vitrine digital asset portal: serve, import and administer the catalogue.')
    .version(BACKEND_VERSION)
    .showHelpAfterError();

  program
    .command('serve')
    .description('start the portal server (settings from the environment, see README)')
    .action(async () => {
      await import('../main.ts');
    });

  usersCommand(program);
  return program;
}

await buildCli().parseAsync(process.argv);
