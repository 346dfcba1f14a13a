import { afterAll } from 'vitest';
import { setPasswordHashCostForTests } from '../src/adapters/password.ts';
import { endHelpers } from '../src/adapters/process.ts';

// Real argon2id hashes, at the least cost it allows: the tests of logins, shares and accounts make
// thousands; the production cost is tested in adapters/password.test.ts.
setPasswordHashCostForTests({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

// Every server test file ends the long-lived child processes (exiftool) its code started, whatever
// started them; `npm test` checks at its end that no process of the run is left.
afterAll(async () => endHelpers());
