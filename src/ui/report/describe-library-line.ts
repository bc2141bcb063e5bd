/**
 * Why states of a report are not restorable because of the library line:
 * the saved snapshot class belongs to one line of flink-datastream-protobuf and the target is the
 * other. Read from the params of the TARGET_CANNOT_READ_SNAPSHOT findings.
 */
import type { CompatibilityReport, ReportState } from '../../core/report';

export interface LibraryLineBlock {
  snapshotClass: string;
  savedLine: string;
  target: string;
  /** what Flink prints on restore (the same for every such state) */
  failureText?: string;
  states: ReportState[];
}

/** Returns null when no state fails for that reason. */
export function describeLibraryLine(report: CompatibilityReport): LibraryLineBlock | null {
  let block: LibraryLineBlock | null = null;
  for (const s of report.states) {
    const first = s.firstIncompatibility;
    if (s.verdict !== 'not-restorable' || first?.ruleId !== 'TARGET_CANNOT_READ_SNAPSHOT') continue;
    const p = first.params;
    if (!block)
      block = {
        snapshotClass: String(p.snapshotClass),
        savedLine: String(p.savedLine),
        target: String(p.target),
        ...(s.failureText ? { failureText: s.failureText } : {}),
        states: [],
      };
    block.states.push(s);
  }
  return block;
}

/** The reason column of a state: a library-line failure in a few words (the note above the table explains it), else the first incompatibility. */
export function summarizeReason(s: ReportState): string | undefined {
  const first = s.firstIncompatibility;
  if (first?.ruleId === 'TARGET_CANNOT_READ_SNAPSHOT') return `${first.params.savedLine} snapshot: ${first.params.target} cannot read it`;
  return first?.message ?? s.reason;
}

/** The target line (`1.x`) a state's TARGET_CANNOT_READ_SNAPSHOT finding names, else `target`. */
export function describeTargetLine(s: ReportState): string {
  const first = s.firstIncompatibility;
  return first?.ruleId === 'TARGET_CANNOT_READ_SNAPSHOT' ? String(first.params.target) : 'target';
}

/** `io.github.….ProtobufTypeSerializerSnapshot` → `ProtobufTypeSerializerSnapshot` */
export function simpleClassName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}
