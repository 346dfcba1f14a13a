import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The settings file of a bench's data folder: a bench sends thousands of searches without an account
 * from one loopback address, which the per-client search limit (docs/security.md "What is
 * rate-limited") would refuse after 1200, and opens a guest session for every fresh browser, which
 * the guest-session burst would hold to one every 10 s. Both are still counted as in production.
 */
export function writeBenchSettings(dataDir: string): void {
  const file = path.join(dataDir, 'settings.json');
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const rateLimits = {
    ...(current.rateLimits as object | undefined),
    search: { max: 100_000_000, minutes: 10 },
    guestSessions: { max: 100_000, minutes: 10, burst: null },
  };
  writeFileSync(file, `${JSON.stringify({ ...current, rateLimits }, null, 2)}\n`);
}
