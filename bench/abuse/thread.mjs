// The abusers' thread of bench/abuse/run.ts: the same file, compiled by tsx as in the main thread.
import { register } from 'tsx/esm/api';

register();
await import('./run.ts');
