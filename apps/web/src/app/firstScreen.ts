// Imported first by main.tsx: the first screen's code starts downloading before the rest of the
// app's code runs (see screens.ts). The calls it waits on were asked for by the page's first-paint
// script (src/first-paint/earlyAnswers.ts) before this code arrived.
import { bootData } from '../lib/bootData.ts';
import { startFirstScreen } from './screens.ts';

startFirstScreen(window.location.hash, bootData());
