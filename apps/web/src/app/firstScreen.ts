// Imported first by main.tsx: the first screen's code starts downloading, and the calls it waits on
// are asked, before the rest of the app's code runs (see screens.ts and lib/earlyAnswers.ts). In a
// build the page's script has asked for them before, through the early entry (src/early.ts).
import { bootData } from '../lib/bootData.ts';
import { askFirstAnswersOnce } from '../lib/earlyAnswers.ts';
import { startFirstScreen } from './screens.ts';

startFirstScreen(window.location.hash, bootData());
askFirstAnswersOnce(window.location.hash, bootData());
