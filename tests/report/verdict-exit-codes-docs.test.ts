/**
 * One table of overall verdict → exit code: the code's VERDICT_EXIT_CODES, what `--help` prints, and the
 * tables in docs/cli.md and docs/report-schema.md are the same (verdict, exit code, meaning, in order).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERDICT_EXIT_CODES } from '../../src/core/report/verdict-exit-codes';
import { runCli } from '../../src/cli/run-cli';

/** The rows `| \`verdict\` | code | meaning |` of the first table whose header is `| Verdict | Exit code | When |`. */
function readDocTable(file: string): { verdict: string; exitCode: number; meaning: string }[] {
  const lines = readFileSync(path.resolve(process.cwd(), file), 'utf8').split('\n');
  const start = lines.indexOf('| Verdict | Exit code | When |');
  expect(start, `${file} has no verdict → exit code table`).toBeGreaterThanOrEqual(0);
  const rows: { verdict: string; exitCode: number; meaning: string }[] = [];
  for (const line of lines.slice(start + 2)) {
    const m = /^\| `([a-z-]+)` \| (\d) \| (.*) \|$/.exec(line);
    if (!m) break;
    rows.push({ verdict: m[1]!, exitCode: Number(m[2]), meaning: m[3]! });
  }
  return rows;
}

async function help(args: string[]): Promise<string> {
  let out = '';
  await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (out += t) });
  return out;
}

describe('verdict → exit code: one table', () => {
  const code = VERDICT_EXIT_CODES.map((r) => ({ verdict: r.verdict, exitCode: r.exitCode, meaning: r.meaning }));

  it('only compatible passes', () => {
    expect(code.map((r) => [r.verdict, r.exitCode])).toEqual([
      ['compatible', 0],
      ['incompatible', 1],
      ['not-restorable', 1],
      ['unknown', 1],
    ]);
  });

  it.each(['docs/cli.md', 'docs/report-schema.md'])("%s has the code's table", (file) => {
    expect(readDocTable(file)).toEqual(code);
  });

  it.each([[['--help']], [['check', '--help']], [['compare', '--help']]])('%j prints it', async (args) => {
    const text = await help(args);
    for (const r of code) expect(text).toContain(`  ${r.exitCode}  ${r.verdict.padEnd(14)}  ${r.meaning}\n`);
  });
});
