/**
 * The CLI's plumbing types: where output goes (so runCli runs in-process in tests) and what a
 * subcommand looks like. Commands are registered in commands/index.ts.
 */
import type { Readable, Writable } from 'node:stream';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/io';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stdout as a byte stream, for a command's binary output (`export --output -`); absent in-process unless a test gives one */
  stdoutStream?: Writable;
  /** stdin as a byte stream, for an input named `-` (`inspect - < sp.zip`); absent in-process unless a test gives one */
  openStdin?: () => Readable;
  /** whether stdout is a terminal (colour, format-color.ts); false when absent */
  stdoutIsTTY?: boolean;
  /** the terminal's width when stdout is one (the text reports wrap to it: wrap-terminal-text.ts); absent otherwise */
  stdoutColumns?: number;
  /** the environment colour consults (NO_COLOR, FORCE_COLOR, TERM); none when absent (in-process: no colour) */
  env?: Record<string, string | undefined>;
  /** the folder the config file is looked for from, upward (load-cli-config.ts); process.cwd() when absent */
  cwd?: string;
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
  /**
   * what `--format` takes, the first being the default (text): every command printing a document has `json`
   * among them, and then takes the old `--json` as `--format json` with a deprecation note (dispatch-command.ts)
   */
  formats?: readonly string[];
  /**
   * the arguments naming a file the command reads: there `-` is stdin, and `-` or a FIFO is spooled to a
   * temporary file before the command runs (sources/spool-streamed-input.ts); `limits`: bytes at most, by option
   */
  inputs?: { positionals?: boolean; options?: readonly string[]; limits?: Readonly<Record<string, number>> };
  /** what `--quiet` (every command) leaves of the output, one line for its help and docs/cli.md */
  quiet: string;
  /** runs with parsed values and positionals; returns the exit code */
  run(args: CliRunArgs, io: CliIo): Promise<number>;
}

export interface CliRunArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** old spellings the command line used (`--json`, `--first`), each already noted on stderr */
  deprecated: readonly string[];
  /** registers work to do when the command ends, whatever its outcome (a spooled stdin's temporary file) */
  atExit(cleanup: () => Promise<void> | void): void;
}

/** A usage problem with an option or argument: a UsageError (code `bad-option`) reported with the command's usage, exit code 2. */
export class CliUsageError extends UsageError {
  override readonly name: string = 'CliUsageError';
  constructor(detail: string) {
    super('bad-option', detail);
  }
}
