/**
 * The CLI's command table. Each command lives in its own file and is registered with one line
 * here: `inspect` (flink-metadata), `dump` (protobuf: ./dump.ts) and `check` (compat: ./check.ts), `compare` (two descriptor sets: ./compare.ts).
 */
import type { CliCommand } from '../cli-types';
import { inspectCommand } from './inspect';
import { checkCommand } from './check';
import { compareCommand } from './compare';
import { dumpCommand } from './dump';
import { statsCommand } from '../scan/stats-command';

export const COMMANDS: readonly CliCommand[] = [
  inspectCommand,
  dumpCommand,
  checkCommand,
  compareCommand,
  statsCommand,
];
