// Imported first by main.tsx: the first screen's code starts downloading before the rest of the
// app's code runs (see screens.ts).
import { bootData } from '../lib/bootData.ts';
import { startFirstScreen } from './screens.ts';

startFirstScreen(window.location.hash, bootData());
