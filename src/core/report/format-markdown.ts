/** Markdown rendering (PR comments, wikis): summary table, then per state its findings and warnings. */
import {
  describeEntryHeading,
  describeInputRole,
  describeNotChecked,
  describeReportTitle,
  describeSettings,
  describeStateTitle,
  describeSummary,
  describeVerdict,
  listInferredLines,
} from './describe-state';
import { describeSourcesAndSinks } from './describe-sources-and-sinks';
import { listNewSchemaLines } from './describe-new-schema';
import { describeNoteScope, describeStateFindings } from './describe-state-findings';
import type { CompatibilityReport, ReportState } from './report-types';

/** Escapes text for a Markdown paragraph or table cell. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

export function formatMarkdown(report: CompatibilityReport): string {
  const e = escapeMarkdown;
  const out: string[] = [];
  out.push(`# ${describeReportTitle(report)}`, '');
  const notChecked = describeNotChecked(report);
  out.push(e(describeSummary(report)), '', ...(notChecked ? [e(notChecked), ''] : []), e(describeSettings(report)), '');
  out.push('| input | file | bytes | SHA-256 |', '| --- | --- | ---: | --- |');
  for (const f of report.inputs) out.push(`| ${describeInputRole(f.role)} | ${e(f.name)} | ${f.size} | \`${f.sha256}\` |`);
  if (report.newSchema)
    out.push('', ...listNewSchemaLines(report.newSchema, report.savedSchema).map((line) => (line.startsWith('  ') ? `  - ${e(line.trim())}` : `- ${e(line)}`)));
  out.push('', `| ${describeEntryHeading(report)} | verdict | first incompatibility | warnings |`, '| --- | --- | --- | ---: |');
  for (const s of report.states) {
    const first = s.firstIncompatibility ? `${e(s.firstIncompatibility.message)} (${s.firstIncompatibility.ruleId})` : e(s.reason ?? '');
    out.push(`| ${e(describeStateTitle(s))} | ${describeVerdict(s)} | ${first} | ${s.valuesNotRead !== undefined ? 'values not read' : s.warnings.length} |`);
  }
  for (const s of report.states) out.push('', ...formatState(s));
  // the lines inspect prints, verbatim (names and ids are data: a code block keeps them from being read as Markdown)
  if (report.sourcesAndSinks)
    out.push('', '## Sources and sinks', '', '```text', ...describeSourcesAndSinks(report.sourcesAndSinks).map((l) => l.replace(/```/g, '` ` `')), '```');
  return `${out.join('\n')}\n`;
}

function formatState(s: ReportState): string[] {
  const e = escapeMarkdown;
  const out = [`## ${e(describeStateTitle(s))}: ${describeVerdict(s)}`, ''];
  out.push(`Serializer: ${e(s.serializer)} (${e(s.role)})`);
  const inferred = listInferredLines(s);
  if (inferred.length > 0) out.push('', `**${e(inferred[0]!)}**`, '', ...inferred.slice(1).map((line) => `- ${e(line)}`));
  if (s.reason) out.push('', `Reason: ${e(s.reason)}`);
  if (s.savedRoot)
    out.push(
      '',
      `Root: ${e(s.savedRoot)} → ${e(s.newRoot ?? '')}${s.savedJavaClass ? `; Java class ${e(s.savedJavaClass)} → ${e(s.newJavaClass ?? '?')}` : ''}`,
    );
  if (s.failureText) out.push('', 'Flink would fail the restore with:', '', '```text', s.failureText.replace(/```/g, '` ` `'), '```');
  if (s.valuesNotRead !== undefined) out.push('', `**Values not read**: ${e(s.valuesNotRead)}. No value warning was checked for this state.`);
  if (s.warnings.length > 0) {
    out.push('', '**Value warnings**', '');
    for (const w of s.warnings) out.push(`- ⚠️ **${w.ruleId}**: ${e(w.message)}${w.keys.length > 0 ? ` Keys: ${w.keys.map(e).join(', ')}` : ''}`);
  }
  if (s.findings.length > 0) {
    out.push('', '| rule | outcome | where | message |', '| --- | --- | --- | --- |');
    const { findings, notes } = describeStateFindings(s.findings);
    for (const { finding: f, statement } of findings) out.push(`| ${f.ruleId} | ${f.accepted ? 'accepted' : 'rejected'} | ${e(f.path)} | ${e(statement)} |`);
    for (const note of notes) out.push('', `Note on ${note.ruleId} ${describeNoteScope(note)}: ${e(note.note)}`);
  }
  if (s.planningAid) {
    out.push('', `Planning aid (what the 1.x rules would say if the snapshot could be read): ${s.planningAid.verdict}`);
    if (s.planningAid.firstIncompatibility)
      out.push('', `First incompatibility: ${e(s.planningAid.firstIncompatibility.message)} (${s.planningAid.firstIncompatibility.ruleId})`);
  }
  return out;
}
