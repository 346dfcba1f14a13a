import { random } from './synthetic.ts';

/** One synthetic account as `vitrine bench-data --accounts` writes it. */
export interface BenchAccount {
  name: string;
  displayName: string;
  email: string;
  authSource: string;
  externalId: string | null;
  groups: string[];
  groupOrigin: 'hand' | 'provider';
  disabled: boolean;
  lastLoginAt: number | null;
  createdAt: number;
}

const firstNames = ['Anna', 'Ben', 'Chloé', 'David', 'Eva', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Karin', 'Luca'];
const lastNames = ['Müller', 'Smith', 'Dubois', 'Rossi', 'Novak', 'Jensen', 'García', 'Kowalski', 'Berg', 'Weber'];
const DAY = 86_400_000;
/** A fixed start, so a seed gives the same accounts whenever they are written. */
const BENCH_EPOCH = Date.UTC(2020, 0, 1);

/**
 * Accounts for benchmarks of the People list (issue #50), deterministic for a seed: unique names
 * (first.last plus the account's number), a mail address and display name each; most in `users`,
 * some editors and admins; one in ten logs in through a single sign-on provider (`oidc:corp`, its
 * groups from the provider); a few disabled; last logins over a year, a quarter never. None has a
 * password: they are for listing and searching, not for logging in.
 */
export class SyntheticAccounts {
  private readonly rand: () => number;

  constructor(
    seed = 42,
    private readonly editorsGroup = 'editors',
  ) {
    this.rand = random(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)] as T;
  }

  next(i: number): BenchAccount {
    const first = this.pick(firstNames);
    const last = this.pick(lastNames);
    const name = `${first}.${last}.${i + 1}`.toLowerCase();
    const roll = this.rand();
    const groups = roll < 0.01 ? ['admins'] : roll < 0.05 ? ['users', this.editorsGroup] : ['users'];
    const sso = this.rand() < 0.1;
    const lastLogin = this.rand();
    return {
      name,
      displayName: `${first} ${last}`,
      email: `${name}@example.org`,
      authSource: sso ? 'oidc:corp' : 'native',
      externalId: sso ? `corp-${i + 1}` : null,
      groups,
      groupOrigin: sso ? 'provider' : 'hand',
      disabled: this.rand() < 0.02,
      lastLoginAt: lastLogin < 0.25 ? null : BENCH_EPOCH + Math.floor(lastLogin * 365 * DAY),
      createdAt: BENCH_EPOCH - (i % 1000) * DAY,
    };
  }
}
