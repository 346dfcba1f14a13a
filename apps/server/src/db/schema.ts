import type { Generated } from 'kysely';

/** Tables of the database. Each domain adds its tables here together with a migration. */
export interface Database {
  config_document: ConfigDocumentTable;
}

export interface ConfigDocumentTable {
  name: string;
  lang: string;
  body: string;
  updated_at: Generated<string>;
}
