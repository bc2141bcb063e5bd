import type { EntryProtobufValue } from './inspector';
import type { WorkerProtobufFrame } from './register-worker-protobuf-readers';

/** A decoded value as the detail pane needs it: offsets relative to the frame. */
export function toEntryProtobufValue(f: WorkerProtobufFrame): EntryProtobufValue {
  const d = f.detail!;
  const base = f.offset;
  return {
    typeName: d.typeName,
    frame: f.frame,
    frameOffset: f.offset,
    payloadSize: d.payloadSize,
    depth: d.depth,
    json: d.json,
    unknownFields: d.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, offset: u.offset - base, length: u.length })),
    fieldRanges: d.fieldRanges.map((r) => ({ path: r.path, number: r.number, known: r.known, offset: r.offset - base, length: r.length })),
  };
}
