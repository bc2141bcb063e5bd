/**
 * Entry of the prebuilt CLI bundle (bin/build-cli.mjs: CommonJS, dist-cli/savepoint-inspector.cjs).
 * bin/run-cli-bundle.mjs compiles the bundle with its V8 code cache and calls runMain; the cache is
 * trained with runCli on fixture inputs. Run directly (`node dist-cli/savepoint-inspector.cjs …`) it
 * starts itself, without the cache.
 */
import { runMain } from './run-main';

export { runMain } from './run-main';
export { runCli } from './run-cli';

declare const require: { main?: unknown } | undefined;
declare const module: unknown;
if (typeof require !== 'undefined' && require.main === module) void runMain(process.argv.slice(2));
