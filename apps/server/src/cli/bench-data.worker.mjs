// The thread that indexes bench data while the main thread writes it (bench-data.index.ts); the
// sources are TypeScript, compiled on load like the `vitrine` command's own.
import { register } from 'tsx/esm/api';

register();
await import('./bench-data.index.ts');
