/**
 * A Playwright reporter (listed after `list` in playwright.config.ts) that ends the e2e run by saying how
 * many tests were skipped and why — the Playwright counterpart of report-shared-skips.ts for the vitest
 * runs: a spec that needs ../shared (or another input) skips with a reason, and the run's last lines count
 * those skips by reason instead of leaving them to a scroll-back of `-` lines. Silent when none was skipped.
 */
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export interface SkippedTest {
  file: string;
  reason: string;
}

/** "N e2e tests in M files skipped:" and one line per reason with its count, or nothing when none was. */
export function summarizeE2eSkips(skipped: readonly SkippedTest[]): string {
  if (skipped.length === 0) return '';
  const files = new Set(skipped.map((s) => s.file)).size;
  const byReason = new Map<string, number>();
  for (const s of skipped) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
  const lines = [...byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, n]) => `  ${n} × ${reason}`);
  return `\n${skipped.length} e2e test${skipped.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} skipped:\n${lines.join('\n')}\n`;
}

export default class ReportE2eSkips implements Reporter {
  private readonly skipped: SkippedTest[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return;
    const annotation = [...result.annotations, ...test.annotations].find((a) => a.type === 'skip' || a.type === 'fixme');
    this.skipped.push({ file: path.relative(process.cwd(), test.location.file), reason: annotation?.description ?? 'no reason given' });
  }

  onEnd(_result: FullResult): void {
    const text = summarizeE2eSkips(this.skipped);
    if (text !== '') process.stdout.write(text);
  }

  printsToStdio(): boolean {
    return false;
  }
}
