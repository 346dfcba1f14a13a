// A worker thread on a TypeScript module, when the server runs from its sources (thread.ts): it
// registers tsx, then loads the module named by the last argument. The build does not use it.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
