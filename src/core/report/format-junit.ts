/** JUnit XML for CI: one testcase per state; incompatible/not-restorable fail, unknown is skipped. */
import { describeSummary, listInferredLines } from './describe-state';
import type { CompatibilityReport } from './report-types';

export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex -- matches the control characters XML 1.0 cannot carry, to replace them
  const carried = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');
  return carried.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function formatJunit(report: CompatibilityReport): string {
  const e = escapeXml;
  // an inferred verdict fails like an incompatible one: check exits 1 for it
  const fails = (s: CompatibilityReport['states'][number]) =>
    s.verdict === 'incompatible' || s.verdict === 'not-restorable' || (s.inferred !== undefined && s.verdict === 'compatible');
  const failures = report.states.filter(fails).length;
  const skipped = report.states.filter((s) => s.verdict === 'unknown').length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${report.subject === 'descriptor-sets' ? 'schema' : 'savepoint'} compatibility" tests="${report.states.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `<testsuite name="${e(`${report.subject === 'descriptor-sets' ? 'compare' : 'check'} (target ${report.target})`)}" tests="${report.states.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `<properties>${report.inputs.map((f) => `<property name="${e(`${f.role}:${f.name}`)}" value="${e(f.sha256)}"/>`).join('')}</properties>`,
  ];
  for (const s of report.states) {
    out.push(`<testcase classname="${e(s.operatorUid ?? (s.operator || 'schema'))}" name="${e(`${s.state} (${s.role})`)}">`);
    if (s.inferred !== undefined && s.verdict === 'compatible') {
      out.push(
        `<failure type="INFERRED" message="${e('compatible (INFERRED): the snapshot was read by structure, the verdict is not exact')}">${e(listInferredLines(s).join('\n'))}</failure>`,
      );
    } else if (s.verdict === 'incompatible' || s.verdict === 'not-restorable') {
      const message = s.firstIncompatibility?.message ?? s.reason ?? s.verdict;
      const body = [s.failureText ?? '', ...s.findings.filter((f) => !f.accepted).map((f) => `[${f.ruleId}] ${f.message}`)].filter(Boolean).join('\n');
      out.push(`<failure type="${e(s.firstIncompatibility?.ruleId ?? s.verdict)}" message="${e(message)}">${e(body)}</failure>`);
    } else if (s.verdict === 'unknown') {
      out.push(`<skipped message="${e(s.reason ?? 'not a Protobuf state')}"/>`);
    }
    const notes = [
      ...(s.inferred !== undefined && s.verdict !== 'compatible' ? listInferredLines(s) : []),
      ...(s.valuesNotRead !== undefined ? [`VALUES NOT READ: ${s.valuesNotRead} (no value warning was checked)`] : []),
      ...s.warnings.map((w) => `WARNING [${w.ruleId}] ${w.message}`),
    ];
    if (notes.length > 0) out.push(`<system-out>${e(notes.join('\n'))}</system-out>`);
    out.push('</testcase>');
  }
  out.push(
    `<system-out>${e(`${describeSummary(report)} (${report.states.length} ${report.subject === 'descriptor-sets' ? 'roots' : 'states'})`)}</system-out>`,
  );
  out.push('</testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}
