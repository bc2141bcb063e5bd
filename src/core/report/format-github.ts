/**
 * GitHub Actions workflow commands: `::error` per failing state, `::warning` per value warning and
 * a closing `::notice` with the summary. Data and properties are escaped as the runner expects.
 */
import { describeNotChecked, describeReportTitle, describeStateTitle, describeSummary, describeVerdict, listInferredLines } from './describe-state';
import type { CompatibilityReport } from './report-types';

export function escapeGithubData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function formatGithub(report: CompatibilityReport): string {
  const out: string[] = [];
  const file = report.inputs.find((f) => f.role === 'descriptors')?.name;
  const fileProp = file ? `file=${escapeGithubProperty(file)},` : '';
  for (const s of report.states) {
    const title = escapeGithubProperty(`${describeStateTitle(s)}: ${describeVerdict(s)}`);
    if (s.verdict === 'incompatible' || s.verdict === 'not-restorable' || s.inferred !== undefined) {
      const text = [
        s.firstIncompatibility ? `${s.firstIncompatibility.message} (${s.firstIncompatibility.ruleId})` : (s.reason ?? s.verdict),
        s.failureText ?? '',
        ...listInferredLines(s),
      ]
        .filter(Boolean)
        .join('\n');
      out.push(`::error ${fileProp}title=${title}::${escapeGithubData(text)}`);
    }
    if (s.valuesNotRead !== undefined)
      out.push(
        `::warning ${fileProp}title=${escapeGithubProperty(`${describeStateTitle(s)}: values not read`)}::${escapeGithubData(`${s.valuesNotRead}. No value warning was checked for this state.`)}`,
      );
    for (const w of s.warnings) {
      const keys = w.keys.length > 0 ? ` Keys: ${w.keys.join(', ')}` : '';
      out.push(`::warning ${fileProp}title=${escapeGithubProperty(`${describeStateTitle(s)}: ${w.ruleId}`)}::${escapeGithubData(w.message + keys)}`);
    }
  }
  const notChecked = describeNotChecked(report);
  out.push(
    `::notice title=${escapeGithubProperty(describeReportTitle(report))}::${escapeGithubData(notChecked ? `${describeSummary(report)} ${notChecked}` : describeSummary(report))}`,
  );
  return `${out.join('\n')}\n`;
}
