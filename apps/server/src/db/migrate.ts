import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as config from './migrations/202611220000_config.ts';
import * as catalogue from './migrations/202611220100_catalogue.ts';
import * as identity from './migrations/202611220200_identity.ts';
import * as search from './migrations/202611220300_search.ts';
import * as jobs from './migrations/202611220300_jobs.ts';
import * as access from './migrations/202611220300_access.ts';
import * as download from './migrations/202611231000_download.ts';
import * as configHistory from './migrations/202611231100_config_history.ts';
import * as security from './migrations/202611231200_security.ts';
import * as share from './migrations/202611231300_share.ts';

/**
 * Every migration, by name; applied in name order (`YYYYMMDDHHmm_<domain>`). Each is written with
 * Kysely's schema builder so that one file serves SQLite and PostgreSQL. A static list (rather than
 * reading the folder) keeps migrations working however the sources are loaded.
 */
const migrations: Record<string, Migration> = {
  '202611220000_config': config,
  '202611220100_catalogue': catalogue,
  '202611220200_identity': identity,
  '202611220300_search': search,
  '202611220300_jobs': jobs,
  '202611220300_access': access,
  '202611231000_download': download,
  '202611231100_config_history': configHistory,
  '202611231200_security': security,
  '202611231300_share': share,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
}
