/** Dispatches to one output format by name (the `--format` values of `check`). */
import { formatGithub } from './format-github';
import { formatHtml } from './format-html';
import { formatJson } from './format-json';
import { formatJunit } from './format-junit';
import { formatMarkdown } from './format-markdown';
import { formatSarif, type SarifOptions } from './format-sarif';
import { formatText } from './format-text';
import type { CompatibilityReport } from './report-types';

export const REPORT_FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'github', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** `options.sources`: the new schema's source info, which only SARIF reads (its results' lines). */
export function formatReport(report: CompatibilityReport, format: ReportFormat, options: SarifOptions = {}): string {
  switch (format) {
    case 'text':
      return formatText(report);
    case 'json':
      return formatJson(report);
    case 'markdown':
      return formatMarkdown(report);
    case 'html':
      return formatHtml(report);
    case 'junit':
      return formatJunit(report);
    case 'github':
      return formatGithub(report);
    case 'sarif':
      return formatSarif(report, options);
  }
}

/** Whether a format prints the schema diff (the others let `check` skip building it). */
export function formatShowsSchemaDiff(format: ReportFormat): boolean {
  return format === 'json' || format === 'html';
}
