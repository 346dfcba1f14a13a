// Imported first by main.tsx: the first screen's code starts downloading, and the calls it waits on
// are asked, before the rest of the app's code runs (see screens.ts and lib/earlyAnswers.ts).
import { pageOf } from '@vitrine/contract/paths';
import { bootData } from '../lib/bootData.ts';
import { askFirstAnswers } from '../lib/earlyAnswers.ts';
import { startFirstScreen } from './screens.ts';

const { hash } = window.location;
const boot = bootData();
startFirstScreen(hash, boot);
const asker = askFirstAnswers(hash, boot);
// The search page's first results, once the session has answered and the search screen's module,
// whose code the page asks for beside the app's (decision 0243), has run.
if (asker && boot?.fields && pageOf(hash.slice(1) || '/') === 'search') {
  void Promise.all([asker, import('../features/search/SearchPage.tsx')]).then(
    ([who, first]) => who && first.askFirstSearch(boot, hash, who),
  );
}
