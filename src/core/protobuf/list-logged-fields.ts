/**
 * The distinct fields of one scanned value from its ProtobufFieldLog: unknown fields per (message,
 * number, wire type) and present known fields per (message, number), bytes-typed ones marked — the
 * shape the full decoder's tree gives for the value-aware warnings, without building that tree.
 */
import { SCAN_BYTES, SCAN_REPEATED, type ProtobufScanIndex } from './build-protobuf-scan-index';
import type { ProtobufFieldLog } from './protobuf-payload-scan-types';

export interface LoggedField {
  /** full name of the message that holds the field */
  message: string;
  number: number;
  wireType: number;
}

export function listLoggedFields(index: ProtobufScanIndex, log: ProtobufFieldLog): { unknown: LoggedField[]; known: (LoggedField & { bytes?: boolean })[] } {
  const unknown: LoggedField[] = [];
  const known: (LoggedField & { bytes?: boolean })[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < log.unknown.length; i += 3) {
    const m = log.unknown[i]!;
    const number = log.unknown[i + 1]!;
    const wireType = log.unknown[i + 2]!;
    const id = `u${m}|${number}|${wireType}`;
    if (seen.has(id)) continue;
    seen.add(id);
    unknown.push({ message: index.messages[m]!.typeName, number, wireType });
  }
  for (let i = 0; i < log.known.length; i += 2) {
    const m = log.known[i]!;
    const number = log.known[i + 1]!;
    const id = `k${m}|${number}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = index.messages[m]!;
    const flags = number < info.small.length ? info.small[number]! : (info.large.get(number) ?? 0);
    // as the decoder-based summary marks them: singular bytes fields only
    const bytes = (flags & SCAN_BYTES) !== 0 && (flags & SCAN_REPEATED) === 0;
    known.push({ message: info.typeName, number, wireType: 2, ...(bytes ? { bytes: true } : {}) });
  }
  return { unknown, known };
}
