/**
 * Where `check` and `compare` put their report: `--output FILE`, or stdout without it or with `--output -`
 * (as `export --output -`); what their text report keeps under `--quiet`; and how it looks on a terminal.
 */
import { computeExitCode, createProtoSourceLocator, formatReport, type CompatibilityReport, type ReportFormat } from '../core/report';
import type { CliIo } from './cli-types';
import { CliUsageError } from './cli-types';
import { colorReportText, shouldColor } from './format-color';
import { writeOutputFile } from './output-failure';
import { wrapTerminalText } from './wrap-terminal-text';

/**
 * Formats `report` as `check` and `compare` print it and writes it (writeReport); returns the exit code of its verdict.
 * SARIF places each result on its line of the new schema's .proto files when the set (`newSchema`) carries source
 * info; `--quiet` keeps the text report's head; on a terminal the text is wrapped to its width (wrap-terminal-text.ts)
 * and coloured unless NO_COLOR (format-color.ts).
 */
export async function writeCompatibilityReport(
  report: CompatibilityReport,
  format: ReportFormat,
  newSchema: Uint8Array,
  values: { output?: unknown; quiet?: unknown },
  io: CliIo,
): Promise<0 | 1> {
  const sources = format === 'sarif' ? createProtoSourceLocator(newSchema) : undefined;
  const full = formatReport(report, format, sources ? { sources } : {});
  const text = values.quiet === true && format === 'text' ? quietReportText(report, full) : full;
  const toStdout = values.output === undefined || values.output === '-';
  const shown = format === 'text' && toStdout ? wrapTerminalText(text, io.stdoutColumns) : text;
  await writeReport(values.output, format === 'text' && toStdout && shouldColor(io) ? colorReportText(shown) : shown, io);
  return computeExitCode(report);
}

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
