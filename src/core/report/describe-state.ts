/** Shared wording of the human formats: verdict labels, state titles, counts. */
import type { CompatibilityReport, ReportInputFile, ReportState } from './report-types';
import { countValuesNotChecked } from './values-not-read-reasons';

export const VERDICT_LABEL: Record<string, string> = {
  compatible: 'compatible',
  incompatible: 'INCOMPATIBLE',
  'not-restorable': 'NOT RESTORABLE',
  unknown: 'unknown',
};

/** The heading of every format: a savepoint's restore, or (compare) the change between two descriptor sets. */
export function describeReportTitle(report: CompatibilityReport): string {
  return `${report.subject === 'descriptor-sets' ? 'Schema' : 'Savepoint'} compatibility: ${VERDICT_LABEL[report.verdict]}${report.summary.inferred ? ' (INFERRED for some states)' : ''}`;
}

/** The heading of the per-entry column of the summary tables. */
export function describeEntryHeading(report: CompatibilityReport): string {
  return report.subject === 'descriptor-sets' ? 'root message' : 'operator / state';
}

export function describeStateTitle(s: ReportState): string {
  // a compare report's entries are root messages (no operator)
  if (s.operator === '') return s.newRoot && s.newRoot !== s.state ? `root ${s.state} -> ${s.newRoot}` : `root ${s.state}`;
  const op = s.operatorUid ? `${s.operatorUid} (${s.operator})` : s.operator;
  return `${op} / ${s.state}`;
}

export function describeSummary(report: CompatibilityReport): string {
  const s = report.summary;
  if (report.subject === 'descriptor-sets') {
    return `${s.protobufStates} root message(s): ${s.compatible} compatible, ${s.incompatible} incompatible, ${s.notRestorable} not restorable`;
  }
  // Kryo-held values are not unread: they are unchecked because the snapshot keeps no saved schema (values-not-read-reasons)
  const { kryo, unread } = countValuesNotChecked(report.states);
  return (
    `${s.protobufStates} Protobuf state(s): ${s.compatible} compatible, ${s.incompatible} incompatible, ${s.notRestorable} not restorable` +
    (s.unknown > 0 ? `, ${s.unknown} unknown` : '') +
    `; ${s.otherStates} other state(s) not checked; ${s.warnings} value warning(s)` +
    (unread > 0 ? `; the values of ${unread} state(s) were not read, so their value warnings were not checked` : '') +
    (kryo > 0 ? `; the value warnings of ${kryo} state(s) held by Kryo were not checked (a Kryo snapshot keeps no saved schema)` : '') +
    (s.inferred
      ? `; the verdict of ${s.inferred} state(s) is INFERRED from a snapshot class no reader knows (read by structure, not exact), which fails check`
      : '')
  );
}

const INPUT_ROLE_LABEL: Record<ReportInputFile['role'], string> = {
  savepoint: 'savepoint',
  'saved-descriptors': 'old descriptor set',
  descriptors: 'new descriptor set',
  'saved-job-jar': 'old job jar',
  'job-jar': 'new job jar',
  'with-jar': 'with jar',
};

/** An input's role in words: which side (old or new) a descriptor set or jar is, not the JSON's role name. */
export function describeInputRole(role: ReportInputFile['role']): string {
  return INPUT_ROLE_LABEL[role];
}

/** What was not checked (report.notChecked) as one sentence, or undefined when everything was: it keeps the verdict from `compatible`. */
export function describeNotChecked(report: CompatibilityReport): string | undefined {
  const list = report.notChecked ?? [];
  return list.length === 0 ? undefined : `Not checked, so the verdict cannot be compatible (check exits 1): ${list.join('; ')}.`;
}

/** The verdict as a label, marked when it is inferred (a snapshot read by structure). */
export function describeVerdict(s: ReportState): string {
  // a state of another serializer has no verdict of its own: say what it is, not "unknown"
  if (s.ruleSet === undefined && s.operator !== '') return s.headerNotRead ? 'unknown: header not read' : 'not checked: not Protobuf';
  return s.inferred ? `${VERDICT_LABEL[s.verdict]} (INFERRED)` : VERDICT_LABEL[s.verdict]!;
}

/** For an inferred verdict: what it rests on, what was not read, what it does not check (one line each). */
export function listInferredLines(s: ReportState): string[] {
  const i = s.inferred;
  if (!i) return [];
  return [
    `INFERRED, not exact: the snapshot was read by ${i.by}`,
    ...i.read.map((r) => `read: ${r.what} at offset ${r.offset} (+${r.length} bytes${r.encoding ? `, ${r.encoding}` : ''})`),
    ...i.notRead.map((n) => `not read: ${n}`),
    ...i.notChecked.map((n) => `not checked: ${n}`),
  ];
}

export function describeSettings(report: CompatibilityReport): string {
  const n = report.newSettings;
  return `target ${report.target}; maxMessageSize ${n.maxMessageSize}, recursionLimit ${n.recursionLimit}, deterministicSerialization ${n.deterministicSerialization}, largePayloadAliasing ${n.largePayloadAliasing}`;
}
