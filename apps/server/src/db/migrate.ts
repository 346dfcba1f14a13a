import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as config from './migrations/202611220000_config.ts';
import * as catalogue from './migrations/202611220100_catalogue.ts';
import * as identity from './migrations/202611220200_identity.ts';
import * as access from './migrations/202611220300_access.ts';
import * as jobs from './migrations/202611220301_jobs.ts';
import * as search from './migrations/202611220302_search.ts';
import * as download from './migrations/202611231000_download.ts';
import * as configHistory from './migrations/202611231100_config_history.ts';
import * as security from './migrations/202611231200_security.ts';
import * as share from './migrations/202611231300_share.ts';
import * as shareLinks from './migrations/202611231810_share_links.ts';
import * as ssoCodes from './migrations/202611231820_sso_codes.ts';
import * as samlReplay from './migrations/202611231821_saml_replay.ts';
import * as longValues from './migrations/202611231822_long_values.ts';
import * as changeSequence from './migrations/202611231830_change_sequence.ts';
import * as indexReaders from './migrations/202611250310_index_readers.ts';
import * as activeIds from './migrations/202611251100_active_ids.ts';
import * as workSlot from './migrations/202611251620_work_slot.ts';
import * as deliveredDownloads from './migrations/202611251700_delivered_downloads.ts';
import * as derivativeClaim from './migrations/202611251705_derivative_claim.ts';
import * as importRoot from './migrations/202611251740_import_root.ts';
import * as conversionLastUsed from './migrations/202611251750_conversion_last_used.ts';
import * as captions from './migrations/202611261500_captions.ts';
import * as placeholderState from './migrations/202611271700_placeholder_state.ts';
import * as deferredIndex from './migrations/202611272230_deferred_index.ts';
import * as textFields from './migrations/202612060030_text_fields.ts';
import * as loginAttemptSubject from './migrations/202612060041_login_attempt_subject.ts';
import * as downloadOnce from './migrations/202612060147_download_once.ts';
import * as edits from './migrations/202612060400_edits.ts';
import * as upload from './migrations/202612060412_upload.ts';
import * as contentlessText from './migrations/202612060700_contentless_text.ts';
import * as insights from './migrations/202612061000_insights.ts';
import * as groupRights from './migrations/202612061300_group_rights.ts';
import * as people from './migrations/202612061310_people.ts';
import * as assetSignature from './migrations/202612061400_asset_signature.ts';
import * as insightSpans from './migrations/202612061410_insight_spans.ts';
import * as peopleSearch from './migrations/202612061500_people_search.ts';
import * as zipList from './migrations/202612062010_zip_list.ts';
import * as insightEventGrouped from './migrations/202612062120_insight_event_grouped.ts';
import * as signatureParts from './migrations/202612070600_signature_parts.ts';
import * as textMergesInBackground from './migrations/202612070900_text_merges_in_background.ts';
import * as writtenChanges from './migrations/202612071600_written_changes.ts';

/**
 * Every migration, by the name of its file in migrations/: `<YYYYMMDDhhmm>_<name>` with a time of
 * its own (db/migrate.test.ts fails on a name of another form, a time used twice, or a file missing
 * here). Each is written with Kysely's schema builder so that one file serves SQLite and
 * PostgreSQL. A static list (rather than reading the folder) keeps migrations working however the
 * sources are loaded. Migrations are applied in name order; one that a database lacks is applied
 * even when it sorts before one it has (two branches each adding a migration), so every migration
 * may rely only on those before it that were merged before it was written.
 */
export const migrations: Record<string, Migration> = {
  '202611220000_config': config,
  '202611220100_catalogue': catalogue,
  '202611220200_identity': identity,
  '202611220300_access': access,
  '202611220301_jobs': jobs,
  '202611220302_search': search,
  '202611231000_download': download,
  '202611231100_config_history': configHistory,
  '202611231200_security': security,
  '202611231300_share': share,
  '202611231810_share_links': shareLinks,
  '202611231820_sso_codes': ssoCodes,
  '202611231821_saml_replay': samlReplay,
  '202611231822_long_values': longValues,
  '202611231830_change_sequence': changeSequence,
  '202611250310_index_readers': indexReaders,
  '202611251100_active_ids': activeIds,
  '202611251620_work_slot': workSlot,
  '202611251700_delivered_downloads': deliveredDownloads,
  '202611251705_derivative_claim': derivativeClaim,
  '202611251740_import_root': importRoot,
  '202611251750_conversion_last_used': conversionLastUsed,
  '202611261500_captions': captions,
  '202611271700_placeholder_state': placeholderState,
  '202611272230_deferred_index': deferredIndex,
  '202612060030_text_fields': textFields,
  '202612060041_login_attempt_subject': loginAttemptSubject,
  '202612060147_download_once': downloadOnce,
  '202612060400_edits': edits,
  '202612060412_upload': upload,
  '202612060700_contentless_text': contentlessText,
  '202612061000_insights': insights,
  '202612061300_group_rights': groupRights,
  '202612061310_people': people,
  '202612061400_asset_signature': assetSignature,
  '202612061410_insight_spans': insightSpans,
  '202612061500_people_search': peopleSearch,
  '202612062010_zip_list': zipList,
  '202612062120_insight_event_grouped': insightEventGrouped,
  '202612070600_signature_parts': signatureParts,
  '202612070900_text_merges_in_background': textMergesInBackground,
  '202612071600_written_changes': writtenChanges,
};

/**
 * Names migrations had before they got a time of their own; a database that recorded an old name
 * gets the new one, so it neither runs the migration again nor refuses to start.
 */
export const renamedMigrations: Record<string, string> = {
  '202611220300_jobs': '202611220301_jobs',
  '202611220300_search': '202611220302_search',
};

const MIGRATION_TABLE = 'kysely_migration';

const provider: MigrationProvider = { getMigrations: async () => migrations };

async function renameRecorded<T>(db: Kysely<T>): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === MIGRATION_TABLE)) return;
  for (const [from, to] of Object.entries(renamedMigrations)) {
    await sql`update ${sql.table(MIGRATION_TABLE)} set name = ${to} where name = ${from}`.execute(db);
  }
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  await renameRecorded(db);
  const migrator = new Migrator({ db, provider, migrationTableName: MIGRATION_TABLE, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
}
