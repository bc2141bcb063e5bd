// Worker thread bootstrap of the parallel scan when the CLI runs from its TypeScript sources
// (`npm run cli`, tests): a worker thread needs a loader of its own, and starting tsx costs each
// worker ~0.5–1.5 s. So while the prebuilt bundle (`npm run build:cli`) is up to date with the
// sources, the worker runs the bundled worker instead; otherwise (or with SAVEPOINT_INSPECTOR_TSX=1)
// it registers tsx and runs scan-worker.ts. (The bundled CLI starts dist-cli/scan-worker-entry.mjs
// directly and never comes here.)
import { fileURLToPath } from 'node:url';
import { checkBundleFreshness } from '../../../bin/is-bundle-fresh.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bundled = new URL('../../../dist-cli/scan-worker-entry.mjs', import.meta.url);

if (process.env.SAVEPOINT_INSPECTOR_TSX !== '1' && checkBundleFreshness(fileURLToPath(bundled), `${root}dist-cli`, root) === 'fresh') {
  await import(bundled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./scan-worker.ts', import.meta.url).href);
}
