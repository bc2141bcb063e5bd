/**
 * The distinct fields of one scanned value from its ProtobufFieldLog: unknown fields per (message,
 * number, wire type) and present known fields per (message, number), bytes-typed ones marked — the
 * shape the full decoder's tree gives for the value-aware warnings, without building that tree.
 * Called once per scanned value: the field objects are made once per scan index and shared (frozen),
 * and duplicates are dropped with a per-call stamp instead of a set of string ids.
 */
import { SCAN_BYTES, SCAN_REPEATED, type ProtobufScanIndex } from './build-protobuf-scan-index';
import type { ProtobufFieldLog } from './protobuf-payload-scan-types';

export interface LoggedField {
  /** full name of the message that holds the field */
  readonly message: string;
  readonly number: number;
  readonly wireType: number;
}

/** A shared field object and the last call that listed it. */
interface Slot<T> {
  field: T;
  stamp: number;
}

interface FieldCache {
  /** per message index: number → slot (known fields), number * 8 + wire type → slot (unknown fields) */
  known: Map<number, Slot<LoggedField & { readonly bytes?: boolean }>>[];
  unknown: Map<number, Slot<LoggedField>>[];
  stamp: number;
}

const caches = new WeakMap<ProtobufScanIndex, FieldCache>();

export function listLoggedFields(index: ProtobufScanIndex, log: ProtobufFieldLog): { unknown: LoggedField[]; known: (LoggedField & { bytes?: boolean })[] } {
  let cache = caches.get(index);
  if (cache === undefined) caches.set(index, (cache = { known: [], unknown: [], stamp: 0 }));
  const stamp = ++cache.stamp;
  const unknown: LoggedField[] = [];
  const known: (LoggedField & { bytes?: boolean })[] = [];
  for (let i = 0; i < log.unknown.length; i += 3) {
    const m = log.unknown[i]!;
    const number = log.unknown[i + 1]!;
    const wireType = log.unknown[i + 2]!;
    const slots = (cache.unknown[m] ??= new Map());
    const id = number * 8 + wireType;
    let slot = slots.get(id);
    if (slot === undefined) slots.set(id, (slot = { field: Object.freeze({ message: index.messages[m]!.typeName, number, wireType }), stamp: 0 }));
    if (slot.stamp === stamp) continue;
    slot.stamp = stamp;
    unknown.push(slot.field);
  }
  for (let i = 0; i < log.known.length; i += 2) {
    const m = log.known[i]!;
    const number = log.known[i + 1]!;
    const slots = (cache.known[m] ??= new Map());
    let slot = slots.get(number);
    if (slot === undefined) {
      const info = index.messages[m]!;
      const flags = number < info.small.length ? info.small[number]! : (info.large.get(number) ?? 0);
      // as the decoder-based summary marks them: singular bytes fields only
      const bytes = (flags & SCAN_BYTES) !== 0 && (flags & SCAN_REPEATED) === 0;
      slots.set(number, (slot = { field: Object.freeze({ message: info.typeName, number, wireType: 2, ...(bytes ? { bytes: true } : {}) }), stamp: 0 }));
    }
    if (slot.stamp === stamp) continue;
    slot.stamp = stamp;
    known.push(slot.field);
  }
  return { unknown, known };
}
