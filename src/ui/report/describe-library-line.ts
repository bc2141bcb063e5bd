/**
 * Why states of a report are not restorable because of the library line:
 * the saved snapshot class belongs to one line of flink-datastream-protobuf and the target is the
 * other. Returns null when no state fails for that reason.
 */
import type { CompatibilityReport, ReportState } from '../../core/report';
import { parseRuleMessage } from './parse-rule-message';

export interface LibraryLineBlock {
  snapshotClass: string;
  savedLine: string;
  target: string;
  /** what Flink prints on restore (the same for every such state) */
  failureText?: string;
  states: ReportState[];
}

export function describeLibraryLine(report: CompatibilityReport): LibraryLineBlock | null {
  let block: LibraryLineBlock | null = null;
  for (const s of report.states) {
    if (s.verdict !== 'not-restorable' || s.firstIncompatibility?.ruleId !== 'TARGET_CANNOT_READ_SNAPSHOT') continue;
    const p = parseRuleMessage('TARGET_CANNOT_READ_SNAPSHOT', s.firstIncompatibility.message);
    if (!p) continue;
    if (!block) block = { snapshotClass: p.snapshotClass, savedLine: p.savedLine, target: p.target, ...(s.failureText ? { failureText: s.failureText } : {}), states: [] };
    block.states.push(s);
  }
  return block;
}

/** `io.github.….ProtobufTypeSerializerSnapshot` → `ProtobufTypeSerializerSnapshot` */
export function simpleClassName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
