import argon2 from 'argon2';
import { ConcurrencyLimit } from './concurrency-limit.ts';

export { LimitQueueFull as PasswordChecksBusy } from './concurrency-limit.ts';

/**
 * argon2 runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which
 * file reads share: a flood of logins, share-link passwords or new passwords may use two threads,
 * and at most 64 more hashes and checks wait; beyond that they are refused with PasswordChecksBusy.
 */
export const passwordWork = new ConcurrencyLimit(2, 64);

/** Password hashing with argon2id (ARCHITECTURE §3 "Auth"); the only module that loads argon2. */
export async function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => argonHash(password));
}

/** argon2id's cost: memory in KiB, passes over it, lanes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** What every stored hash is made with (argon2's own defaults, named so an upgrade cannot lower them). */
export const productionPasswordHashCost: Readonly<PasswordHashCost> = {
  memoryCost: 65_536,
  timeCost: 3,
  parallelism: 4,
};

let cost: Readonly<PasswordHashCost> = productionPasswordHashCost;

/**
 * For the server's tests only (apps/server/test/setup.ts): thousands of hashes of 64 MiB each made
 * most of the time of the login and account tests. A check reads the cost from the stored hash, so
 * a cheaper cost changes no behaviour but the time; password.test.ts hashes at the production cost.
 */
export function setPasswordHashCostForTests(next: Readonly<PasswordHashCost>): void {
  cost = next;
}

function argonHash(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...cost });
}

// A hash of nothing anyone knows: verifying against it when a user does not exist costs the same
// time as a real check, so the answer time does not reveal which names exist.
// Made again when the cost changes, so it keeps costing what a real check costs.
let decoy: { cost: Readonly<PasswordHashCost>; hash: Promise<string> } | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  return passwordWork.run(() => verify(hash, password));
}

async function verify(hash: string | null, password: string): Promise<boolean> {
  if (!hash) {
    // Made outside the limit: it runs inside a check that holds a slot already.
    if (decoy?.cost !== cost) decoy = { cost, hash: argonHash(`decoy-${Math.random()}`) };
    await argon2.verify(await decoy.hash, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash never matches; it must not turn a login into a 500.
    return false;
  }
}
