import { setPasswordHashCostForTests } from '../src/adapters/password.ts';

/**
 * Real argon2id hashes at the least cost argon2 allows, for the tests: logins, shares and accounts
 * make thousands, each of 64 MiB at the production cost (adapters/password.test.ts checks that cost).
 * The server has no setting or variable that lowers it; this module is the only way, loaded by the
 * test runner (setup.ts) and by the `vitrine` processes the tests start (cli.ts, `--import`), and
 * it is neither built nor shipped, so production cannot load it by accident.
 */
export const testPasswordHashCost = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

setPasswordHashCostForTests(testPasswordHashCost);
