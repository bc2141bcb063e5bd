/** Shared wording of the human formats: verdict labels, state titles, counts. */
import type { CompatibilityReport, ReportState } from './report-types';

export const VERDICT_LABEL: Record<string, string> = {
  compatible: 'compatible',
  incompatible: 'INCOMPATIBLE',
  'not-restorable': 'NOT RESTORABLE',
  unknown: 'unknown',
};

export function describeStateTitle(s: ReportState): string {
  const op = s.operatorUid ? `${s.operatorUid} (${s.operator})` : s.operator;
  return `${op} / ${s.state}`;
}

export function describeSummary(report: CompatibilityReport): string {
  const s = report.summary;
  return (
    `${s.protobufStates} Protobuf state(s): ${s.compatible} compatible, ${s.incompatible} incompatible, ${s.notRestorable} not restorable` +
    (s.unknown > 0 ? `, ${s.unknown} unknown` : '') +
    `; ${s.otherStates} other state(s) not checked; ${s.warnings} value warning(s)`
  );
}

export function describeSettings(report: CompatibilityReport): string {
  const n = report.newSettings;
  return `target ${report.target}; maxMessageSize ${n.maxMessageSize}, recursionLimit ${n.recursionLimit}, deterministicSerialization ${n.deterministicSerialization}, largePayloadAliasing ${n.largePayloadAliasing}`;
}
