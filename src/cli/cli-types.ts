/**
 * The CLI's plumbing types: where output goes (so runCli runs in-process in tests) and what a
 * subcommand looks like. Commands are registered in commands/index.ts.
 */
import type { Writable } from 'node:stream';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/io';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stdout as a byte stream, for a command's binary output (`export --output -`); absent in-process unless a test gives one */
  stdoutStream?: Writable;
}

/** Exit codes shared by all commands (docs/cli.md). */
export const EXIT_OK = 0;
/** reserved for verdicts, e.g. `check` finding an incompatible change */
export const EXIT_FINDINGS = 1;
/** bad input (unreadable or corrupt savepoint, missing file) or bad usage */
export const EXIT_BAD_INPUT = 2;
/** an unexpected internal error (a bug) */
export const EXIT_INTERNAL = 3;

export interface CliCommand {
  name: string;
  /** one line for the command list */
  summary: string;
  /** usage text shown by `<command> --help` and on usage errors */
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** runs with parsed values and positionals; returns the exit code */
  run(args: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] }, io: CliIo): Promise<number>;
}

/** A usage problem with an option or argument: a UsageError (code `bad-option`) reported with the command's usage, exit code 2. */
export class CliUsageError extends UsageError {
  override readonly name: string = 'CliUsageError';
  constructor(detail: string) {
    super('bad-option', detail);
  }
}
