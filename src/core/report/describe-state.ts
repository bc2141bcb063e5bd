/** Shared wording of the human formats: verdict labels, state titles, counts. */
import type { CompatibilityReport, ReportState } from './report-types';

export const VERDICT_LABEL: Record<string, string> = {
  compatible: 'compatible',
  incompatible: 'INCOMPATIBLE',
  'not-restorable': 'NOT RESTORABLE',
  unknown: 'unknown',
};

/** The heading of every format: a savepoint's restore, or (compare) the change between two descriptor sets. */
export function describeReportTitle(report: CompatibilityReport): string {
  return `${report.subject === 'descriptor-sets' ? 'Schema' : 'Savepoint'} compatibility: ${VERDICT_LABEL[report.verdict]}`;
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
  return (
    `${s.protobufStates} Protobuf state(s): ${s.compatible} compatible, ${s.incompatible} incompatible, ${s.notRestorable} not restorable` +
    (s.unknown > 0 ? `, ${s.unknown} unknown` : '') +
    `; ${s.otherStates} other state(s) not checked; ${s.warnings} value warning(s)` +
    (s.valuesNotRead ? `; the values of ${s.valuesNotRead} state(s) were not read, so their value warnings were not checked` : '')
  );
}

export function describeSettings(report: CompatibilityReport): string {
  const n = report.newSettings;
  return `target ${report.target}; maxMessageSize ${n.maxMessageSize}, recursionLimit ${n.recursionLimit}, deterministicSerialization ${n.deterministicSerialization}, largePayloadAliasing ${n.largePayloadAliasing}`;
}
