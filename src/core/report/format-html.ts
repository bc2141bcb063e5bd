/**
 * A self-contained HTML page: inline CSS, no script, its own Content-Security-Policy meta (nothing
 * may load; inline styles only), every string escaped. Includes the schema diff of each state.
 */
import { describeSourcesAndSinks } from './describe-sources-and-sinks';
import { listNewSchemaLines } from './describe-new-schema';
import type { DiffDeclaration } from '../compat';
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
import { describeNoteScope, describeStateFindings } from './describe-state-findings';
import type { CompatibilityReport, ReportState } from './report-types';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24;background:#fff}
h1,h2,h3{line-height:1.2}table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.v-compatible{color:#116329}.v-incompatible,.v-not-restorable{color:#b3261e;font-weight:600}.v-unknown{color:#6e7781}
.rejected{background:#ffebe9}.accepted{background:#dafbe1}.warning{border-left:4px solid #bf8700;background:#fff8c5;padding:.5rem .75rem;margin:.5rem 0}
.unreached{opacity:.7}code,pre{font-family:ui-monospace,monospace;font-size:12px}pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem}`;

export function formatHtml(report: CompatibilityReport): string {
  const e = escapeHtml;
  const title = describeReportTitle(report);
  const notChecked = describeNotChecked(report);
  const out: string[] = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)}</title><style>${CSS}</style></head><body>`,
    `<h1 class="v-${e(report.verdict)}">${e(title)}</h1>`,
    `<p>${e(describeSummary(report))}</p>${notChecked ? `<p>${e(notChecked)}</p>` : ''}<p>${e(describeSettings(report))}</p>`,
    `<p>${e(report.tool.name)} ${e(report.tool.version)}${report.generatedAt ? `, ${e(report.generatedAt)}` : ''}</p>`,
    '<table><tr><th>input</th><th>file</th><th>bytes</th><th>SHA-256</th></tr>',
    ...report.inputs.map((f) => `<tr><td>${e(describeInputRole(f.role))}</td><td>${e(f.name)}</td><td>${f.size}</td><td><code>${e(f.sha256)}</code></td></tr>`),
    '</table>',
    ...(report.newSchema
      ? ['<ul class="new-schema">', ...listNewSchemaLines(report.newSchema, report.savedSchema).map((line) => `<li>${e(line.trim())}</li>`), '</ul>']
      : []),
    `<table><tr><th>${describeEntryHeading(report)}</th><th>verdict</th><th>first incompatibility</th><th>warnings</th></tr>`,
    ...report.states.map(
      (s) =>
        `<tr><td>${e(describeStateTitle(s))}</td><td class="v-${e(s.verdict)}">${e(describeVerdict(s))}</td><td>${e(s.firstIncompatibility?.message ?? s.reason ?? '')}</td><td>${s.valuesNotRead !== undefined ? 'values not read' : s.warnings.length}</td></tr>`,
    ),
    '</table>',
  ];
  // appended one by one: a spread of one state's 100,000 finding rows would overflow the call stack
  for (const s of report.states) for (const line of formatState(s)) out.push(line);
  if (report.sourcesAndSinks)
    out.push('<h2>Sources and sinks</h2>', `<pre>${describeSourcesAndSinks(report.sourcesAndSinks).map(escapeHtml).join('\n')}</pre>`);
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}

function formatState(s: ReportState): string[] {
  const e = escapeHtml;
  const out = [`<section><h2>${e(describeStateTitle(s))}: <span class="v-${e(s.verdict)}">${e(describeVerdict(s))}</span></h2>`];
  const inferred = listInferredLines(s);
  if (inferred.length > 0)
    out.push(
      `<div class="warning"><strong>${e(inferred[0]!)}</strong><ul>${inferred
        .slice(1)
        .map((line) => `<li>${e(line)}</li>`)
        .join('')}</ul></div>`,
    );
  out.push(
    `<p>Serializer ${e(s.serializer)} (${e(s.role)})${s.savedRoot ? `; root ${e(s.savedRoot)} → ${e(s.newRoot ?? '')}` : ''}${s.savedJavaClass ? `; Java class ${e(s.savedJavaClass)} → ${e(s.newJavaClass ?? '?')}` : ''}</p>`,
  );
  if (s.reason) out.push(`<p>${e(s.reason)}</p>`);
  if (s.failureText) out.push(`<p>Flink would fail the restore with:</p><pre>${e(s.failureText)}</pre>`);
  if (s.valuesNotRead !== undefined)
    out.push(`<div class="warning"><strong>Values not read</strong>: ${e(s.valuesNotRead)}. No value warning was checked for this state.</div>`);
  for (const w of s.warnings) {
    out.push(`<div class="warning"><strong>${e(w.ruleId)}</strong>: ${e(w.message)}${w.keys.length > 0 ? `<br>Keys: ${w.keys.map(e).join(', ')}` : ''}</div>`);
  }
  if (s.findings.length > 0) {
    out.push('<table><tr><th>rule</th><th>outcome</th><th>where</th><th>message</th></tr>');
    const { findings, notes } = describeStateFindings(s.findings);
    for (const { finding: f, statement } of findings) {
      const cls = f.accepted ? 'accepted' : 'rejected';
      out.push(`<tr class="${cls}"><td>${e(f.ruleId)}</td><td>${cls}</td><td>${e(f.path)}</td><td>${e(statement)}</td></tr>`);
    }
    out.push('</table>');
    for (const note of notes) out.push(`<p class="note">Note on ${e(note.ruleId)} ${describeNoteScope(note)}: ${e(note.note)}</p>`);
  }
  if (s.planningAid) {
    out.push(
      `<p>Planning aid (what the 1.x rules would say if the snapshot could be read): ${e(s.planningAid.verdict)}${s.planningAid.firstIncompatibility ? ` — ${e(s.planningAid.firstIncompatibility.message)}` : ''}</p>`,
    );
  }
  if (s.diff) {
    out.push('<h3>Schema diff (reached declarations)</h3>');
    for (const d of s.diff.declarations) for (const line of formatDeclaration(d)) out.push(line);
    if (s.diff.unreached.length > 0) {
      out.push('<h3>Unreached declarations that changed (no effect on the verdict)</h3>');
      for (const d of s.diff.unreached) for (const line of formatDeclaration(d)) out.push(line);
    }
  }
  out.push('</section>');
  return out;
}

function formatDeclaration(d: DiffDeclaration): string[] {
  const e = escapeHtml;
  const name = d.savedName && d.newName && d.savedName !== d.newName ? `${d.savedName} → ${d.newName}` : (d.savedName ?? d.newName ?? '');
  const out = [
    `<details${d.status === 'changed' && d.affectsVerdict ? ' open' : ''} class="${d.affectsVerdict ? '' : 'unreached'}"><summary>${e(d.kind)} ${e(name)} (${e(d.status)})</summary>`,
  ];
  out.push('<table><tr><th>member</th><th>saved</th><th>new</th></tr>');
  for (const r of d.rows) {
    const side = (m: Record<string, string> | undefined): string =>
      m
        ? Object.entries(m)
            .map(([k, v]) => `${e(k)}: ${e(v)}`)
            .join('<br>')
        : '—';
    out.push(`<tr><td>${e(r.kind)} ${e(r.key)}</td><td>${side(r.saved)}</td><td>${side(r.new)}</td></tr>`);
  }
  out.push('</table>');
  if (d.findings.length > 0)
    out.push(`<ul>${d.findings.map((f) => `<li class="${f.accepted ? 'accepted' : 'rejected'}">${e(f.ruleId)}: ${e(f.message)}</li>`).join('')}</ul>`);
  out.push('</details>');
  return out;
}
