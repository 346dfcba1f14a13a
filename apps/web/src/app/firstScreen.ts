// Imported first by main.tsx: the first screen's code starts downloading, and the calls it waits on
// are asked, before the rest of the app's code runs (see screens.ts and lib/earlyAnswers.ts).
import { bootData } from '../lib/bootData.ts';
import { askFirstAnswers } from '../lib/earlyAnswers.ts';
import { startFirstScreen } from './screens.ts';

startFirstScreen(window.location.hash, bootData());
askFirstAnswers(window.location.hash, bootData());
