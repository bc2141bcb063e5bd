/**
 * Where `check` and `compare` put their report: `--output FILE`, or stdout without it or with `--output -`
 * (as `export --output -`); and what their text report keeps under `--quiet`.
 */
import { computeExitCode, type CompatibilityReport } from '../core/report';
import type { CliIo } from './cli-types';
import { CliUsageError } from './cli-types';
import { writeOutputFile } from './output-failure';

/** Writes the report to `--output` (a file; `-` or absent: stdout). */
export async function writeReport(output: unknown, text: string, io: CliIo): Promise<void> {
  if (output === undefined || output === '-') {
    io.stdout(text);
    return;
  }
  if (typeof output !== 'string' || output === '') throw new CliUsageError('--output expects a file, or - for stdout');
  await writeOutputFile(output, text);
}

/**
 * `--quiet` on the text report: nothing when the verdict passes (exit 0), else its head — the verdict (or title)
 * line, the summary line and, when something was not checked, that line — which the text report prints before
 * its settings line (`target …`).
 */
export function quietReportText(report: CompatibilityReport, text: string): string {
  if (computeExitCode(report) === 0) return '';
  const lines = text.split('\n');
  const settings = lines.findIndex((l) => l.startsWith('target '));
  return `${lines.slice(0, settings < 0 ? 2 : settings).join('\n')}\n`;
}
