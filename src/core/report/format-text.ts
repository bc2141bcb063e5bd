/** Plain-text rendering for the terminal. */
import {
  describeInputRole,
  describeNotChecked,
  describeReportTitle,
  describeSettings,
  describeStateTitle,
  describeSummary,
  describeVerdict,
  listInferredLines,
  VERDICT_LABEL,
} from './describe-state';
import { listNewSchemaLines } from './describe-new-schema';
import { describeNoteScope, describeStateFindings } from './describe-state-findings';
import { describeSourcesAndSinks } from './describe-sources-and-sinks';
import type { CompatibilityReport } from './report-types';

export function formatText(report: CompatibilityReport): string {
  const out: string[] = [];
  out.push(
    report.subject === 'descriptor-sets'
      ? describeReportTitle(report)
      : `Verdict: ${VERDICT_LABEL[report.verdict]}${report.summary.inferred ? ` (INFERRED for ${report.summary.inferred} state(s): not exact, check exits 1)` : ''}`,
  );
  out.push(describeSummary(report));
  const notChecked = describeNotChecked(report);
  if (notChecked) out.push(notChecked);
  out.push(describeSettings(report));
  for (const f of report.inputs) out.push(`input ${describeInputRole(f.role)}: ${f.name} (${f.size} bytes, sha256 ${f.sha256})`);
  if (report.newSchema) out.push(...listNewSchemaLines(report.newSchema, report.savedSchema));
  for (const s of report.states) {
    out.push('');
    out.push(`[${describeVerdict(s)}] ${describeStateTitle(s)} (${s.role}, ${s.serializer})`);
    for (const line of listInferredLines(s)) out.push(`  ${line}`);
    if (s.reason && s.reason !== s.firstIncompatibility?.message) out.push(`  reason: ${s.reason}`);
    if (s.savedRoot) out.push(`  root: ${s.savedRoot} -> ${s.newRoot}${s.savedJavaClass ? `; class ${s.savedJavaClass} -> ${s.newJavaClass ?? '?'}` : ''}`);
    if (s.firstIncompatibility) out.push(`  first incompatibility [${s.firstIncompatibility.ruleId}]: ${s.firstIncompatibility.message}`);
    if (s.failureText) out.push(`  Flink would fail with: ${s.failureText}`);
    if (s.valuesNotRead !== undefined) out.push(`  VALUES NOT READ: ${s.valuesNotRead} (no value warning was checked)`);
    for (const w of s.warnings) out.push(`  WARNING [${w.ruleId}] ${w.message}${w.keys.length > 0 ? ` (keys: ${w.keys.join(', ')})` : ''}`);
    // the first incompatibility was given whole above, its rule's note with it
    const { findings, notes } = describeStateFindings(s.findings);
    for (const { finding: f, statement } of findings.filter((x) => x.finding.message !== s.firstIncompatibility?.message))
      out.push(`  ${f.accepted ? 'ok  ' : 'FAIL'} [${f.ruleId}] ${statement}`);
    for (const note of notes.filter((n) => n.ruleId !== s.firstIncompatibility?.ruleId))
      out.push(`  note on ${note.ruleId} ${describeNoteScope(note)}: ${note.note}`);
    if (s.planningAid) {
      out.push(`  planning aid (what the 1.x rules would say): ${s.planningAid.verdict}`);
      if (s.planningAid.firstIncompatibility)
        out.push(`    first incompatibility [${s.planningAid.firstIncompatibility.ruleId}]: ${s.planningAid.firstIncompatibility.message}`);
    }
  }
  if (report.sourcesAndSinks) out.push('', 'Sources and sinks', ...describeSourcesAndSinks(report.sourcesAndSinks));
  return `${out.join('\n')}\n`;
}
