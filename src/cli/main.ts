/** Node entry point of the CLI from its TypeScript sources (`npm run cli -- …`, bin/savepoint-inspector.mjs through tsx). */
import { runMain } from './run-main';

await runMain(process.argv.slice(2));
