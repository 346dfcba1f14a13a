// The thread that parses and draws one 3D model (model-view.thread.ts) for model-renderer.ts; the
// sources are TypeScript, compiled on load like the `vitrine` command's own.
import { register } from 'tsx/esm/api';

register();
await import('./model-view.thread.ts');
