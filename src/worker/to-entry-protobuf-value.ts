import type { DecodedProtobufValue } from '../core/protobuf';
import type { EntryProtobufValue } from './inspector';

/** A decoded value as the detail pane needs it: its frame's bytes (a copy) and offsets relative to the frame. */
export function toEntryProtobufValue({ detail: d, frame }: DecodedProtobufValue): EntryProtobufValue {
  const base = d.frameOffset;
  return {
    typeName: d.typeName,
    frame: frame.slice(),
    frameOffset: base,
    payloadSize: d.payloadSize,
    depth: d.depth,
    json: d.json,
    unknownFields: d.unknownFields.map((u) => ({ path: u.path, number: u.number, wireType: u.wireType, offset: u.offset - base, length: u.length })),
    fieldRanges: d.fieldRanges.map((r) => ({ path: r.path, number: r.number, known: r.known, offset: r.offset - base, length: r.length })),
  };
}
