/** Builds the report model from evaluated states, in a stable order (operator id, state, role). */
import { DEFAULT_SETTINGS, type Finding, type ValueWarning, type Verdict } from '../compat';
import { countValuesNotChecked } from './values-not-read-reasons';
import {
  REPORT_SCHEMA_VERSION,
  type CompatibilityReport,
  type ReportFinding,
  type ReportFirstIncompatibility,
  type ReportInput,
  type ReportState,
  type ReportStateInput,
  type ReportWarning,
} from './report-types';

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
  const headersNotRead = states.filter((s) => s.headerNotRead === true).length;
  const counted = {
    ...summary,
    ...(valuesNotRead > 0 ? { valuesNotRead } : {}),
    ...(inferred > 0 ? { inferred } : {}),
    ...(headersNotRead > 0 ? { headersNotRead } : {}),
  };
  const notChecked = listNotChecked(counted, countValuesNotChecked(states), input.subject === 'descriptor-sets');
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...(input.subject ? { subject: input.subject } : {}),
    tool: { name: input.tool.name, version: input.tool.version },
    ...(input.generatedAt ? { generatedAt: input.generatedAt } : {}),
    inputs: [...input.inputs].map((f) => ({ role: f.role, name: f.name, size: f.size, sha256: f.sha256 })),
    target: input.target,
    newSettings: { ...DEFAULT_SETTINGS, ...input.newSettings },
    verdict: overallVerdict(counted, notChecked),
    summary: counted,
    ...(notChecked.length > 0 ? { notChecked } : {}),
    ...(input.newSchema ? { newSchema: input.newSchema } : {}),
    ...(input.savedSchema ? { savedSchema: input.savedSchema } : {}),
    ...(input.sourcesAndSinks ? { sourcesAndSinks: input.sourcesAndSinks } : {}),
    states,
  };
}

/** not-restorable and incompatible fail; compatible only when every Protobuf state was checked exactly; else unknown. */
function overallVerdict(s: CompatibilityReport['summary'], notChecked: readonly string[]): Verdict {
  if (s.notRestorable > 0) return 'not-restorable';
  if (s.incompatible > 0) return 'incompatible';
  if (notChecked.length > 0) return 'unknown';
  return 'compatible';
}

/** What was not checked, one sentence each: any of them keeps the verdict from `compatible`. */
function listNotChecked(s: CompatibilityReport['summary'], values: { kryo: number; unread: number }, descriptorSets: boolean): string[] {
  const states = (n: number) => `${n} ${descriptorSets ? 'root message' : 'Protobuf state'}${n === 1 ? '' : 's'}`;
  const out: string[] = [];
  if (s.protobufStates === 0)
    out.push(descriptorSets ? 'no root message was compared: nothing was checked' : 'the savepoint holds no Protobuf state: nothing was checked');
  if (s.unknown > 0) out.push(`${states(s.unknown)} could not be checked (verdict unknown)`);
  const headers = s.headersNotRead ?? 0;
  if (headers > 0)
    out.push(
      `the header of ${headers} state${headers === 1 ? '' : 's'} could not be read, so whether ${headers === 1 ? 'it holds' : 'they hold'} Protobuf is not known`,
    );
  // Kryo-held values are readable: they are left unchecked because a Kryo snapshot keeps no saved schema, not because a file failed
  if (values.kryo > 0)
    out.push(`the value warnings of ${states(values.kryo)} held by Kryo were not checked: they need the saved schema, which a Kryo snapshot does not keep`);
  if (values.unread > 0) out.push(`the saved values of ${states(values.unread)} were not read (each state says why), so their value warnings were not checked`);
  const inferred = s.inferred ?? 0;
  if (inferred > 0) out.push(`the verdict of ${states(inferred)} is inferred from a snapshot read by structure, not exact`);
  return out;
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
    if (input.headerNotRead)
      return { ...op, verdict: 'unknown', reason: input.reason, firstIncompatibility: null, findings: [], warnings: [], headerNotRead: true };
    if (input.uncheckedProtobuf)
      return {
        ...op,
        verdict: 'unknown',
        reason: input.reason,
        ruleSet: 'none',
        firstIncompatibility: null,
        findings: [],
        warnings: [],
        valuesNotRead: input.reason,
      };
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
      ? {
          planningAid: {
            verdict: c.planningAid.verdict,
            firstIncompatibility: first(c.planningAid.firstIncompatibility),
            findings: c.planningAid.findings.map(toFinding),
          },
        }
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
