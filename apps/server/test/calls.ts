import * as alike from '@vitrine/contract/alike';
import * as bookmark from '@vitrine/contract/bookmark';
import type { CallDefinition } from '@vitrine/contract/call';
import * as collection from '@vitrine/contract/collection';
import * as config from '@vitrine/contract/config';
import * as download from '@vitrine/contract/download';
import * as edit from '@vitrine/contract/edit';
import * as groups from '@vitrine/contract/groups';
import * as info from '@vitrine/contract/info';
import * as insights from '@vitrine/contract/insights';
import * as people from '@vitrine/contract/people';
import * as search from '@vitrine/contract/search';
import * as session from '@vitrine/contract/session';
import * as share from '@vitrine/contract/share';

/** Every call the contract describes, registered by the server or not (yet). */
export const contractCalls: CallDefinition[] = [
  alike,
  bookmark,
  collection,
  config,
  download,
  edit,
  groups,
  info,
  insights,
  people,
  search,
  session,
  share,
].flatMap((m) =>
  Object.values(m).filter(
    (v): v is CallDefinition => typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'response' in v,
  ),
);
