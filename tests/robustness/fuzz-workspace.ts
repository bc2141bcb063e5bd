/**
 * Shared pieces of the structure-aware fuzz suites (fuzz-*.test.ts): a scratch folder per suite,
 * a copy of a committed fixture savepoint to rewrite in it, the commands every savepoint case is
 * run with, and the loop that runs a suite's cases through one CliCaseRunner and reports every
 * failure with its case name (seed and index), so a failure replays alone. ROBUSTNESS_SHOW=<file>
 * appends every case's exit code and first message line to that file; ROBUSTNESS_CASES=full runs more cases.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './list-robustness-inputs';
import { CliCaseRunner, judgeBadInputRun, type CliRun } from './run-cli-cases';

export const FULL = process.env['ROBUSTNESS_CASES'] === 'full';

/** A committed savepoint with keyed, operator list/union and broadcast state (flink-2.3 hashmap, canonical). */
export const FIXTURE_SAVEPOINT = path.join(REPO_ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
export const FIXTURE_SCHEMA = path.join(REPO_ROOT, 'src/ui/demo-schema/events-changed.binpb');

export function makeScratchDir(label: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `si-fuzz-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A copy of FIXTURE_SAVEPOINT under `dir` (its `_metadata` is then rewritten per case). */
export function copyFixtureSavepoint(dir: string, name = 'sp'): string {
  const to = path.join(dir, name);
  cpSync(FIXTURE_SAVEPOINT, to, { recursive: true });
  return to;
}

/** The commands a savepoint case runs, one per case in turn: every command that opens a savepoint. */
export function savepointCommand(i: number, input: string): string[] {
  const all = [
    ['inspect', input, '--format', 'json'],
    ['stats', input, '--workers', '1'],
    ['check', input, '--descriptors', FIXTURE_SCHEMA, '--workers', '1'],
    ['inspect', input],
    ['dump', input, '--operator', 'int-keyed', '--state', 'last-event', '--limit', '3'],
  ];
  return all[i % all.length]!;
}

export interface FuzzCase {
  name: string;
  /** prepares the case's files; returns the argv to run */
  prepare: () => string[] | Promise<string[]>;
  /** undefined: bad input (exit 2, located, no stack); else a custom judge */
  judge?: (run: CliRun) => string | undefined;
  /** wall-clock bound of this case (default CASE_BOUND_MS) */
  boundMs?: number;
}

/** Wall-clock bound of one command: generous for 2 shared cores, far below a hang. */
export const CASE_BOUND_MS = 15_000;

export interface FuzzSummary {
  cases: number;
  failures: string[];
  slowestMs: number;
  slowest: string;
}

/** The line a suite prints: cases, failures and its slowest case. */
export function describeSummary(label: string, s: FuzzSummary): string {
  return `${label}: ${s.cases} cases, ${s.failures.length} failed; slowest ${Math.round(s.slowestMs)} ms (${s.slowest})`;
}

export async function runFuzzCases(cases: readonly FuzzCase[], env: Record<string, string> = {}): Promise<FuzzSummary> {
  const runner = new CliCaseRunner(env);
  const failures: string[] = [];
  let slowestMs = 0;
  let slowest = '';
  try {
    for (const c of cases) {
      const argv = await c.prepare();
      const run = await runner.run(argv, c.boundMs ?? CASE_BOUND_MS);
      if (run.ms > slowestMs) [slowestMs, slowest] = [run.ms, c.name];
      const why = (c.judge ?? judgeBadInputRun)(run);
      // ROBUSTNESS_SHOW=<file> appends what every case ended in to that file, to read the messages
      const show = process.env['ROBUSTNESS_SHOW'];
      if (show)
        appendFileSync(
          show,
          `${c.name}\n    exit ${run.code} in ${Math.round(run.ms)} ms: ${(run.stderr || run.stdout.split('\n').find((l) => /error/.test(l)) || '').split('\n')[0]!.slice(0, 600)}\n`,
        );
      if (why) failures.push(`${c.name}: ${why}\n    argv: ${argv.join(' ')}`);
    }
  } finally {
    await runner.close();
  }
  for (const f of failures.slice(0, 20)) console.error(`FAILED ${f}`);
  if (failures.length > 20) console.error(`… and ${failures.length - 20} more failures`);
  return { cases: cases.length, failures, slowestMs, slowest };
}
