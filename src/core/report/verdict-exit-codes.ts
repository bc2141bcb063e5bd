/**
 * The one table of a report's overall verdict → the exit code of `check` and `compare`, used by the CLI,
 * printed by its `--help`, and written out in docs/cli.md and docs/report-schema.md (a test compares both
 * tables with this one). Only `compatible` passes: a CI gate never passes on state it could not check.
 * Input and usage errors (exit 2, no report) and internal errors (exit 3) come before any verdict.
 */
import type { Verdict } from '../compat';
import type { CompatibilityReport } from './report-types';

export interface VerdictExitCode {
  verdict: Verdict;
  exitCode: 0 | 1;
  /** when a report has this overall verdict */
  meaning: string;
}

export const VERDICT_EXIT_CODES: readonly VerdictExitCode[] = [
  { verdict: 'compatible', exitCode: 0, meaning: 'every Protobuf state was checked exactly and restores with the new schema' },
  { verdict: 'incompatible', exitCode: 1, meaning: 'a Protobuf state does not restore with the new schema (a new root the new schema lacks included)' },
  {
    verdict: 'not-restorable',
    exitCode: 1,
    meaning: 'a Protobuf state cannot be restored by the target serializer whatever the schema (another library line, Protobuf held by Kryo)',
  },
  {
    verdict: 'unknown',
    exitCode: 1,
    meaning:
      'something was not checked: no Protobuf state, a Protobuf state of an unknown serializer, a state header that could not be read, an inferred verdict, or saved values that were not read (a state file missing or unreadable, no new message to compare them with) or not checked (Protobuf held by Kryo: no saved schema)',
  },
];

/** Exit code of `check` and `compare` for a report: its overall verdict's row of VERDICT_EXIT_CODES. */
export function computeExitCode(report: CompatibilityReport): 0 | 1 {
  const row = VERDICT_EXIT_CODES.find((r) => r.verdict === report.verdict);
  if (row === undefined) throw new Error(`no exit code for verdict ${report.verdict}`);
  return row.exitCode;
}

/** The table as `--help` prints it: one line per verdict, then the two error codes. */
export function formatExitCodeLines(): string[] {
  const width = Math.max(...VERDICT_EXIT_CODES.map((r) => r.verdict.length));
  return [
    ...VERDICT_EXIT_CODES.map((r) => `  ${r.exitCode}  ${r.verdict.padEnd(width)}  ${r.meaning}`),
    `  2  ${'(no report)'.padEnd(width)}  bad input or usage: unreadable savepoint, not a descriptor set, a missing import, bad options`,
    `  3  ${'(no report)'.padEnd(width)}  internal error (a bug)`,
  ];
}
