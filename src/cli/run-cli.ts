/**
 * The CLI entry as a function: dispatches argv over every command of commands/index.ts
 * (dispatch-command.ts: parsing, exit codes, failures). main.ts calls it with process streams;
 * tests call it in-process.
 */
import type { CliIo } from './cli-types';
import { COMMANDS } from './commands';
import { dispatchCommand } from './dispatch-command';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  return dispatchCommand(COMMANDS, argv, io);
}
