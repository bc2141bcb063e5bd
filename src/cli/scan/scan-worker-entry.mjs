// Worker thread bootstrap of the parallel scan: the CLI runs from TypeScript sources through tsx
// (bin/savepoint-inspector.mjs), and a worker thread needs tsx's loader registered in itself too.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./scan-worker.ts', import.meta.url).href);
