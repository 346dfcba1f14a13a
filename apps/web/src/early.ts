// The build's second entry (vite.config.ts), started by the page's script beside the app's entry
// (public/first-paint.js): a few kilobytes that ask for the first screen's answers (the session, an
// asset page's asset and preview; lib/earlyAnswers.ts) while the app's code is still on its way.
// The app's calls take them (lib/apiClient.ts askEarly), as this chunk's modules are the app's own.
import { bootData } from './lib/bootData.ts';
import { askFirstAnswersOnce } from './lib/earlyAnswers.ts';

askFirstAnswersOnce(window.location.hash, bootData());
