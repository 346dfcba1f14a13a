import { expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { journeyPortal } from './portals.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Creates an account on the journey's portal through the real command line, the password on stdin.
 * The runner starts a new worker after a failed journey, which runs a `beforeAll` again, so an
 * account made before is fine.
 */
export function addUser(name: string, groups: string, password = 'journey secret'): void {
  try {
    execFileSync(process.execPath, ['apps/server/bin/vitrine.mjs', 'users', 'add', name, '--groups', groups], {
      cwd: root,
      input: `${password}\n`,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: journeyPortal().env,
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr?.toString() ?? '';
    if (!stderr.includes('exists already')) throw error;
  }
}

/** Logs in through the login page with the password `addUser` gives by default. */
export async function logIn(page: Page, user: string, password = 'journey secret'): Promise<void> {
  await page.goto('/#/login');
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).not.toHaveURL(/#\/login/, { timeout: 15_000 });
}
