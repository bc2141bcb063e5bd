/**
 * Entry of the prebuilt compare bundle (bin/build-cli.mjs: CommonJS, dist-cli/savepoint-inspector-compare.cjs):
 * the `compare` command alone, so that `savepoint-inspector compare …` (a CI step, as `buf breaking` is)
 * neither reads nor evaluates the code of the other commands (Flink, RocksDB, the savepoint scan, export
 * with Arrow and Parquet) — a process of ~40 ms of its own work would otherwise spend about as much
 * loading them. bin/savepoint-inspector.mjs picks this bundle when the command is `compare`; it
 * answers exactly as bundle-entry.ts does for that command (the same dispatch and command code).
 */
import type { CliIo } from './cli-types';
import { compareCommand } from './commands/compare';
import { dispatchCommand } from './dispatch-command';
import { runAsProcess } from './run-as-process';

const COMPARE_ONLY = [compareCommand];

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  return dispatchCommand(COMPARE_ONLY, argv, io);
}

export async function runMain(argv: readonly string[]): Promise<void> {
  await runAsProcess(runCli, argv);
}

declare const require: { main?: unknown } | undefined;
declare const module: unknown;
if (typeof require !== 'undefined' && require.main === module) void runMain(process.argv.slice(2));
