/**
 * The CLI's command table. Each command lives in its own file and is registered with one line
 * here: `inspect` (flink-metadata), `dump` (protobuf: ./dump.ts) and `check` (compat: ./check.ts), `compare` (two descriptor sets: ./compare.ts), `diff` (two savepoints: ./diff.ts), `export-schema` (./export-schema.ts), `export` (rows of a state: ./export.ts), `migration-plan` (Kryo-held Protobuf: ./migration-plan.ts), `migration-job` (its State Processor API project: ./migration-job.ts), `serve` (the built app on loopback: ./serve.ts), `completion` (shell completion scripts from this table: ./completion.ts).
 */
import type { CliCommand } from '../cli-types';
import { inspectCommand } from './inspect';
import { checkCommand } from './check';
import { compareCommand } from './compare';
import { diffCommand } from './diff';
import { exportSchemaCommand } from './export-schema';
import { dumpCommand } from './dump';
import { exportCommand } from './export';
import { migrationPlanCommand } from './migration-plan';
import { migrationJobCommand } from './migration-job';
import { scanJobCommand } from './scan-job';
import { mergeStatsCommand, statsCommand } from '../scan';
import { serveCommand } from './serve';
import { createCompletionCommand } from './completion';

export const COMMANDS: readonly CliCommand[] = [
  inspectCommand,
  dumpCommand,
  checkCommand,
  compareCommand,
  diffCommand,
  exportSchemaCommand,
  exportCommand,
  statsCommand,
  mergeStatsCommand,
  migrationPlanCommand,
  migrationJobCommand,
  scanJobCommand,
  serveCommand,
  // `completion bash|zsh|fish`, generated from this table
  createCompletionCommand(() => COMMANDS),
];
