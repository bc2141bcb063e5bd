/**
 * The export rows of one state entry: one row, or for keyed list state one row per element (with its
 * index). A Protobuf value brings its decoded message and unknown fields (decode-mode scans only).
 * listFramedExportRows: the same rows from a `frame`-mode scan, each with its one Protobuf frame
 * still undecoded (the Arrow writer reads it) and a way to decode the row as listExportRows would.
 */
import type { DescMessage } from '@bufbuild/protobuf';
import type { DecodedValue, StateEntry } from '../flink';
import type { PbMessage } from '../protobuf';
import { ByteReader, isDecodeError } from '../io';
import { encodeBase64 } from '../flink';
import { asProtobufFrame, listProtobufFrames, listProtobufValueDetails, walkMessages, type DecodedProtobufValue } from '../protobuf';
import type { FramedExportRow, FramedExportRowSource } from './arrow-export-writer';
import { EXPORT_UNKNOWN_FIELDS_PER_VALUE, type ExportRow, type ExportUnknownField } from './export-types';

export function listExportRows(entry: StateEntry, listState: boolean): ExportRow[] {
  const base = {
    subtask: entry.subtask,
    keyGroup: entry.keyGroup,
    ...(entry.key === undefined ? {} : { key: entry.key }),
    ...(entry.namespace === undefined ? {} : { namespace: entry.namespace }),
    ...(entry.userKey === undefined ? {} : { userKey: entry.userKey }),
  };
  if (listState && entry.value !== null && entry.value.kind === 'list') {
    return entry.value.items.map((item, i) => ({ ...base, elementIndex: i, ...describeValue(item, undefined) }));
  }
  return [{ ...base, ...describeValue(entry.value, entry.valueRange.length) }];
}

function describeValue(value: DecodedValue | null, serializedLength: number | undefined): DescribedValue {
  return describeDetails(value, listProtobufValueDetails(value), serializedLength);
}

type DescribedValue = Pick<ExportRow, 'value' | 'message' | 'valueSize' | 'unknownFields' | 'unknownFieldsOmitted'>;

function describeDetails(value: DecodedValue | null, details: readonly DecodedProtobufValue[], serializedLength: number | undefined): DescribedValue {
  const unknown = collectCappedUnknownFields(details, EXPORT_UNKNOWN_FIELDS_PER_VALUE);
  const only = details.length === 1 ? details[0]!.detail : undefined;
  return {
    value,
    ...(only === undefined ? {} : { message: only.message }),
    valueSize: only !== undefined ? only.payloadSize : (serializedLength ?? details.reduce((n, d) => n + d.detail.payloadSize, 0)),
    unknownFields: unknown.fields,
    ...(unknown.omitted > 0 ? { unknownFieldsOmitted: unknown.omitted } : {}),
  };
}

/**
 * The first `cap` unknown fields of the values' messages (nested ones and the fields of unknown groups too, in the
 * order of the decoder's lists), copied, and how many more there are: a value of a million unknown fields is counted,
 * not made into a million cells (nor into the decoder's flattened list of them).
 */
function collectCappedUnknownFields(details: readonly DecodedProtobufValue[], cap: number): { fields: ExportUnknownField[]; omitted: number } {
  const fields: ExportUnknownField[] = [];
  let omitted = 0;
  for (const { detail } of details) {
    const { payload } = detail;
    const add = (list: PbMessage['unknown'], path: string): void => {
      for (const u of list) {
        if (fields.length < cap)
          fields.push({ path, number: u.number, wireType: u.wireType, bytes: payload.slice(u.range.offset, u.range.offset + u.range.length) });
        else omitted++;
        if (u.wireType === 3) add(u.value, path === '' ? String(u.number) : `${path}.${u.number}`);
      }
    };
    walkMessages(detail.message, '', (m, path) => add(m.unknown, path));
  }
  return { fields, omitted };
}

export function listFramedExportRows(entry: StateEntry, listState: boolean, root: DescMessage): FramedExportRowSource[] {
  const base: FramedExportRow = {
    subtask: entry.subtask,
    keyGroup: entry.keyGroup,
    ...(entry.key === undefined ? {} : { key: entry.key }),
    ...(entry.namespace === undefined ? {} : { namespace: entry.namespace }),
    ...(entry.userKey === undefined ? {} : { userKey: entry.userKey }),
  };
  const source = (row: FramedExportRow, unit: DecodedValue | null, serializedLength: number | undefined): FramedExportRowSource => {
    const frames = unit !== null && unit.kind === 'frame' ? [unit] : listProtobufFrames(unit);
    const only = frames.length === 1 && asProtobufFrame(frames[0]!)?.codec.content.schema.root === root ? frames[0] : undefined;
    const decode = (): ExportRow => {
      let decoded: DecodedValue[];
      try {
        decoded = decodeFrames(unit);
      } catch (e) {
        // as a `decode` scan keeps a value its serializer refuses: its bytes, `decodeFailed`, with the reason
        if (!isDecodeError(e)) throw e;
        return { ...row, ...describeValue(describeUndecodableFrames(unit, e.message), serializedLength) };
      }
      // the value as a `decode` scan gives it: each frame replaced by its decoded message (JSON Lines and CSV write the value itself)
      const value = withDecodedFrames(unit, decoded, { next: 0 }, 0);
      return { ...row, ...describeDetails(value, decoded.flatMap(listProtobufValueDetails), serializedLength) };
    };
    return { row, frame: only, whole: only !== undefined && unit === only, decode };
  };
  if (listState && entry.value !== null && entry.value.kind === 'list') {
    return entry.value.items.map((item, i) => source({ ...base, elementIndex: i }, item, undefined));
  }
  return [source(base, entry.value, entry.valueRange.length)];
}

/** A framed value whose payload its decoder refused, as a `decode` scan keeps it: its serialized bytes, `decodeFailed`. */
function describeUndecodableFrames(value: DecodedValue | null, reason: string): DecodedValue {
  const frames = listProtobufFrames(value);
  const bytes = frames.length === 1 ? frames[0]!.bytes.subarray(frames[0]!.start, frames[0]!.end) : new Uint8Array(0);
  return { kind: 'opaque', reason: `value could not be decoded: ${reason}`, length: bytes.length, base64: encodeBase64(bytes), decodeFailed: true };
}

/** The value's Protobuf frames decoded, in read order, as a `decode`-mode scan has them (a bad payload throws the decoder's DecodeError). */
function decodeFrames(value: DecodedValue | null): DecodedValue[] {
  return listProtobufFrames(value).map((frame) => {
    const reader = new ByteReader(frame.bytes.subarray(frame.start, frame.end), {
      ...(frame.file === undefined ? {} : { file: frame.file }),
      baseOffset: frame.offset,
    });
    return frame.codec.decode(reader, 'decode');
  });
}

/** as deep as findNestedValues looks for frames */
const MAX_VALUE_DEPTH = 64;

/** The value with its Protobuf frames replaced by their decoded values (in listProtobufFrames' order: the same walk). */
function withDecodedFrames(v: DecodedValue | null, decoded: readonly DecodedValue[], at: { next: number }, depth: number): DecodedValue | null {
  if (v === null) return null;
  if (v.kind === 'frame' && asProtobufFrame(v) !== undefined) return decoded[at.next++]!;
  if (depth >= MAX_VALUE_DEPTH) return v;
  const inner = (x: DecodedValue) => withDecodedFrames(x, decoded, at, depth + 1)!;
  switch (v.kind) {
    case 'list':
      return { ...v, items: v.items.map(inner) };
    case 'ttl':
      return { ...v, value: inner(v.value) };
    case 'tuple':
      return { ...v, fields: v.fields.map(inner) };
    case 'pojo':
      return { ...v, fields: v.fields.map((f) => ({ ...f, value: inner(f.value) })) };
    case 'row':
      return { ...v, fields: v.fields.map((f) => ({ ...f, value: inner(f.value) })) };
    case 'map':
      return { ...v, entries: v.entries.map((e) => ({ ...e, key: inner(e.key), value: inner(e.value) })) };
    default:
      return v;
  }
}
