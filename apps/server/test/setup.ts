import { afterAll } from 'vitest';
import { endHelpers } from '../src/adapters/process.ts';
// Real argon2id hashes, at the least cost it allows (the module says why and how).
import './cheap-password-hashes.ts';

// Every server test file ends the long-lived child processes (exiftool) its code started, whatever
// started them; `npm test` checks at its end that no process of the run is left.
afterAll(async () => endHelpers());
