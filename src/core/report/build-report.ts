/** Builds the report model from evaluated states, in a stable order (operator id, state, role). */
import { DEFAULT_SETTINGS, type Finding, type ValueWarning, type Verdict } from '../compat';
import { REPORT_SCHEMA_VERSION, type CompatibilityReport, type ReportFinding, type ReportFirstIncompatibility, type ReportInput, type ReportState, type ReportStateInput, type ReportWarning } from './report-types';

export function buildReport(input: ReportInput): CompatibilityReport {
  const states = input.states.map(toReportState).sort(compareStates);
  const protobuf = states.filter((s) => s.ruleSet !== undefined);
  const count = (v: Verdict): number => protobuf.filter((s) => s.verdict === v).length;
  const summary = {
    protobufStates: protobuf.length,
    compatible: count('compatible'),
    incompatible: count('incompatible'),
    notRestorable: count('not-restorable'),
    unknown: count('unknown'),
    otherStates: states.length - protobuf.length,
    warnings: states.reduce((n, s) => n + s.warnings.length, 0),
  };
  const valuesNotRead = states.filter((s) => s.valuesNotRead !== undefined).length;
  const inferred = states.filter((s) => s.inferred !== undefined).length;
  const counted = { ...summary, ...(valuesNotRead > 0 ? { valuesNotRead } : {}), ...(inferred > 0 ? { inferred } : {}) };
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...(input.subject ? { subject: input.subject } : {}),
    tool: { name: input.tool.name, version: input.tool.version },
    ...(input.generatedAt ? { generatedAt: input.generatedAt } : {}),
    inputs: [...input.inputs].map((f) => ({ role: f.role, name: f.name, size: f.size, sha256: f.sha256 })),
    target: input.target,
    newSettings: { ...DEFAULT_SETTINGS, ...input.newSettings },
    verdict: overallVerdict(summary),
    summary: counted,
    ...(input.newSchema ? { newSchema: input.newSchema } : {}),
    ...(input.savedSchema ? { savedSchema: input.savedSchema } : {}),
    states,
  };
}

/** not-restorable and incompatible fail; compatible when every Protobuf state is; unknown when there is none. */
function overallVerdict(s: CompatibilityReport['summary']): Verdict {
  if (s.notRestorable > 0) return 'not-restorable';
  if (s.incompatible > 0) return 'incompatible';
  if (s.unknown > 0 || s.protobufStates === 0) return 'unknown';
  return 'compatible';
}

// the casts: ruleId and params come from the same finding, which the union types cannot follow
function toFinding(f: Finding): ReportFinding {
  return { ruleId: f.ruleId, accepted: f.accepted, path: f.path, message: f.message, params: f.params } as ReportFinding;
}

function first(f: Finding | undefined): ReportFirstIncompatibility | null {
  return f ? ({ ruleId: f.ruleId, message: f.message, params: f.params } as ReportFirstIncompatibility) : null;
}

function toWarning(w: ValueWarning): ReportWarning {
  return { ruleId: w.ruleId, message: w.message, count: w.count, keys: [...w.keys], params: w.params } as ReportWarning;
}

function toReportState(input: ReportStateInput): ReportState {
  const op = {
    operator: input.operator.id,
    ...(input.operator.uid ? { operatorUid: input.operator.uid } : {}),
    ...(input.operator.name ? { operatorName: input.operator.name } : {}),
    state: input.state,
    role: input.role,
    serializer: input.snapshotClass,
  };
  if (input.kind === 'other') {
    if (input.uncheckedProtobuf) return { ...op, verdict: 'unknown', reason: input.reason, ruleSet: 'none', firstIncompatibility: null, findings: [], warnings: [], valuesNotRead: input.reason };
    return { ...op, verdict: 'unknown', reason: input.reason, firstIncompatibility: null, findings: [], warnings: [] };
  }
  const c = input.compatibility;
  return {
    ...op,
    verdict: c.verdict,
    ...(c.verdict === 'not-restorable' && c.firstIncompatibility ? { reason: c.firstIncompatibility.message } : {}),
    ruleSet: c.ruleSet,
    savedRoot: c.savedRoot,
    newRoot: c.newRoot,
    ...(c.savedJavaClass ? { savedJavaClass: c.savedJavaClass } : {}),
    ...(c.newJavaClass ? { newJavaClass: c.newJavaClass } : {}),
    firstIncompatibility: first(c.firstIncompatibility),
    ...(c.failureText ? { failureText: c.failureText } : {}),
    findings: c.findings.map(toFinding),
    warnings: input.warnings.map(toWarning),
    ...(input.valuesScanned !== undefined ? { valuesScanned: input.valuesScanned } : {}),
    ...(input.valuesNotRead !== undefined ? { valuesNotRead: input.valuesNotRead } : {}),
    ...(c.planningAid
      ? { planningAid: { verdict: c.planningAid.verdict, firstIncompatibility: first(c.planningAid.firstIncompatibility), findings: c.planningAid.findings.map(toFinding) } }
      : {}),
    ...(input.diff ? { diff: input.diff } : {}),
    ...(c.inferred ? { inferred: c.inferred } : {}),
  };
}

function compareStates(a: ReportState, b: ReportState): number {
  return cmp(a.operator, b.operator) || cmp(a.state, b.state) || cmp(a.role, b.role);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Exit code of `check`: 0 when every Protobuf state is compatible, 1 when any is incompatible, not restorable,
 * could not be checked (verdict unknown: its values are Protobuf but nothing here could read its serializer) or
 * has an inferred verdict (its snapshot was read by structure: even "compatible" rests on guessed layout and
 * unchecked limits), or had its saved values asked for and not read (missing or unreadable state files: the
 * unknown fields a new field would absorb were not checked) — a CI gate never passes on Protobuf state it did
 * not check exactly. `--no-values` asks for no values, so it marks none as not read.
 */
export function computeExitCode(report: CompatibilityReport): 0 | 1 {
  const s = report.summary;
  return s.incompatible > 0 || s.notRestorable > 0 || s.unknown > 0 || (s.inferred ?? 0) > 0 || (s.valuesNotRead ?? 0) > 0 ? 1 : 0;
}
