/**
 * What the exports' three wire paths share (the Arrow appender, append-protobuf-wire-value.ts; the text
 * writer, write-protobuf-wire-json.ts; the Parquet shredder, shred-protobuf-wire-parquet.ts): the one plan
 * compiler — the per-message plan of the fields with what each accepts on the wire,
 * compiled once from the descriptor (each path adds its own output to every field), and the walk of
 * one message's fields into an occurrence stack (first and last occurrence per field, the next
 * occurrence of the same field), the map entries' key and value, and a map key's identity as the
 * decoder tells keys apart. Anything outside the plain case throws FALLBACK: the value goes to the
 * full decoder (see append-protobuf-wire-value.ts for the list of such cases).
 */
import { ScalarType, type DescEnum, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { getAcceptedWireTypes, WireCursor } from '../protobuf';

/** field numbers looked up in an array (below) or a Map (above) */
export const DENSE_NUMBERS = 128;

/** A root unknown field: bytes[start, end) of the value walked (tag included), with its number and wire type. */
export interface WireUnknownField {
  number: number;
  wireType: number;
  start: number;
  end: number;
}

/** the wire type a scalar is written with (unpacked) */
export function wireTypeOf(scalar: ScalarType): number {
  switch (scalar) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 1;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return 5;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return 2;
    default:
      return 0;
  }
}

/** Thrown inside a wire walk, caught at the root: the value goes to the full decoder. */
export const WIRE_FALLBACK = Symbol('wire-fallback');

/** A field as every wire path reads it. */
export interface WireField {
  /** index in the message plan's fields (declaration order) */
  index: number;
  kind: DescField['fieldKind'];
  field: DescField;
  /** scalar, list of scalars, map value scalar */
  scalar: ScalarType | undefined;
  accepts: number;
  /** implicit presence (a default value is not set) */
  implicit: boolean;
  required: boolean;
  /** index of the field's oneof in the message, or -1 */
  oneof: number;
  /** enum, list of enums, map of enums */
  enumDesc: DescEnum | undefined;
  /** message, list of messages, map of messages */
  message: DescMessage | undefined;
  mapKey: ScalarType | undefined;
  mapKind: 'scalar' | 'enum' | 'message' | undefined;
  /** map: the entry's key and value tags */
  keyTag: number;
  valueTag: number;
}

/** per field: first and last occurrence (index into the occurrence stack) and count; per oneof: the field index set, or -1 */
export interface WireScratch {
  first: Int32Array;
  last: Int32Array;
  count: Int32Array;
  oneofSet: Int32Array;
}

export interface WireMessagePlan<F extends WireField> {
  fields: F[];
  byNumber: Map<number, F>;
  /** the same, indexed by field number, for numbers below DENSE_NUMBERS */
  dense: (F | undefined)[];
  /** per field: first and last occurrence (index into the occurrence stack), count (a plan is never nested in itself) */
  first: Int32Array;
  last: Int32Array;
  count: Int32Array;
  /** per oneof: the field index set, or -1 */
  oneofSet: Int32Array;
  hasOneofs: boolean;
  oneofs: number;
}

/** The fields of `desc` as the wire paths read them, each extended with what `extend` adds (its output). */
export function compileWirePlan<F extends WireField>(desc: DescMessage, extend: (base: WireField) => F): WireMessagePlan<F> {
  const fields = desc.fields.map((field, index) => extend(describeWireField(desc, field, index)));
  const n = fields.length;
  return {
    fields,
    byNumber: new Map(fields.map((f) => [f.field.number, f])),
    dense: Array.from({ length: DENSE_NUMBERS }, (_, no) => fields.find((f) => f.field.number === no)),
    first: new Int32Array(n),
    last: new Int32Array(n),
    count: new Int32Array(n),
    oneofSet: new Int32Array(Math.max(1, desc.oneofs.length)),
    hasOneofs: desc.oneofs.length > 0,
    oneofs: desc.oneofs.length,
  };
}

function describeWireField(desc: DescMessage, field: DescField, index: number): WireField {
  const f = field;
  const scalar = f.fieldKind === 'scalar' || f.fieldKind === 'list' || f.fieldKind === 'map' ? (f.scalar ?? undefined) : undefined;
  const enumDesc =
    f.fieldKind === 'enum' || (f.fieldKind === 'list' && f.listKind === 'enum') || (f.fieldKind === 'map' && f.mapKind === 'enum') ? f.enum : undefined;
  const mapKind = f.fieldKind === 'map' ? f.mapKind : undefined;
  const mapKey = f.fieldKind === 'map' ? f.mapKey : undefined;
  return {
    index,
    kind: f.fieldKind,
    field,
    scalar,
    accepts: getAcceptedWireTypes(field),
    implicit: field.oneof === undefined && field.presence === FeatureSet_FieldPresence.IMPLICIT,
    required: field.proto.label === 2,
    oneof: field.oneof === undefined ? -1 : desc.oneofs.indexOf(field.oneof),
    enumDesc: enumDesc ?? undefined,
    message: f.message ?? undefined,
    mapKey,
    mapKind,
    keyTag: mapKey === undefined ? 0 : (1 << 3) | wireTypeOf(mapKey),
    valueTag: mapKind === undefined ? 0 : (2 << 3) | (mapKind === 'scalar' ? wireTypeOf(scalar!) : mapKind === 'enum' ? 0 : 2),
  };
}

/** The walk over one value's wire bytes every wire path makes; subclasses write what they find. */
export class ProtobufWireWalk {
  /** occurrence stack: value start (after the tag), wire type, next occurrence of the same field */
  protected occPos = new Int32Array(1024);
  protected occWt = new Uint8Array(1024);
  protected occNext = new Int32Array(1024);
  protected top = 0;
  /** the wire reader over the value's bytes: any read it cannot make gives the value to the full decoder */
  protected readonly w = new WireCursor(() => {
    throw WIRE_FALLBACK;
  });
  /** the root's unknown fields of the last value walked */
  readonly unknown: WireUnknownField[] = [];
  /** the last map entry's key and value positions (-1: absent) */
  protected keyAt = -1;
  protected valueAt = -1;

  /** starts a value: the cursor over bytes[start, end) */
  protected begin(bytes: Uint8Array, start: number, end: number): void {
    this.w.reset(bytes, start, end);
    this.top = 0;
    this.unknown.length = 0;
  }

  /**
   * The fields of the message in [start, end) onto the occurrence stack, counted in `scratch` (the plan's
   * own unless the plan may nest in itself); a root unknown field into `unknown`. A singular field or
   * oneof given twice, an unknown field below the root, a group, a malformed payload: WIRE_FALLBACK.
   */
  protected scanFields<F extends WireField>(plan: WireMessagePlan<F>, start: number, end: number, depth: number, scratch: WireScratch = plan): void {
    const w = this.w;
    const { first, last, count, oneofSet } = scratch;
    count.fill(0, 0, plan.fields.length);
    if (plan.hasOneofs) oneofSet.fill(-1, 0, plan.oneofs);
    let p = start;
    while (p < end) {
      const tagStart = p;
      // a tag of field number 0 or over 32 bits: the decoder's invalid-tag error
      w.pos = p;
      w.end = end;
      const tag = w.readTag();
      p = w.pos;
      const no = tag >>> 3;
      const wt = tag & 7;
      const fp = no < DENSE_NUMBERS ? plan.dense[no] : plan.byNumber.get(no);
      const valueStart = p;
      // a group (wire type 3) fails here: the full decoder's case
      p = w.skipValueAt(p, wt, end);
      if (fp === undefined || (fp.accepts & (1 << wt)) === 0) {
        if (depth > 0) throw WIRE_FALLBACK;
        this.unknown.push({ number: no, wireType: wt, start: tagStart, end: p });
        continue;
      }
      const i = fp.index;
      if (fp.kind !== 'list' && fp.kind !== 'map' && count[i]! > 0) throw WIRE_FALLBACK;
      if (fp.oneof >= 0) {
        if (oneofSet[fp.oneof]! >= 0 && oneofSet[fp.oneof] !== i) throw WIRE_FALLBACK;
        oneofSet[fp.oneof] = i;
      }
      const o = this.top++;
      if (o >= this.occPos.length) this.growOccurrences();
      this.occPos[o] = valueStart;
      this.occWt[o] = wt;
      this.occNext[o] = -1;
      if (count[i] === 0) first[i] = o;
      else this.occNext[last[i]!] = o;
      last[i] = o;
      count[i]!++;
    }
    if (p !== end) throw WIRE_FALLBACK;
  }

  /** The map entry at occurrence o: keyAt/valueAt (last wins; a message value given twice is merged: WIRE_FALLBACK); the entry's end. */
  protected scanEntry(fp: WireField, o: number, end: number): number {
    const w = this.w;
    const stop = w.lengthDelimitedAt(this.occPos[o]!, end);
    let p = w.pos;
    let keyAt = -1;
    let valueAt = -1;
    while (p < stop) {
      w.pos = p;
      w.end = stop;
      const tag = w.readTag();
      const at = w.pos;
      p = w.skipValueAt(at, tag & 7, stop);
      if (tag === fp.keyTag) keyAt = at;
      else if (tag === fp.valueTag) {
        if (fp.mapKind === 'message' && valueAt >= 0) throw WIRE_FALLBACK;
        valueAt = at;
      }
    }
    if (p !== stop) throw WIRE_FALLBACK;
    this.keyAt = keyAt;
    this.valueAt = valueAt;
    return stop;
  }

  /** a map key's identity as the decoder's map tells keys apart (absent: the type's default) */
  protected identifyKey(scalar: ScalarType, at: number, end: number): string {
    const w = this.w;
    const b = w.buf;
    switch (scalar) {
      case ScalarType.STRING: {
        if (at < 0) return '';
        const stop = w.lengthDelimitedAt(at, end);
        let id = '';
        for (let i = w.pos; i < stop; i++) id += String.fromCharCode(b[i]!);
        return id;
      }
      case ScalarType.FIXED32:
      case ScalarType.SFIXED32:
        return at < 0 || at + 4 > end ? '0' : String(b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24) | 0);
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64:
        if (at < 0 || at + 8 > end) return '0:0';
        return `${b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24) | 0}:${b[at + 4]! | (b[at + 5]! << 8) | (b[at + 6]! << 16) | (b[at + 7]! << 24) | 0}`;
      default: {
        if (at < 0) return '0:0';
        w.skipVarintAt(at, end);
        if (scalar === ScalarType.BOOL) return w.lo !== 0 || w.hi !== 0 ? '1:0' : '0:0';
        // 32-bit keys: the decoder keeps the low 32 bits
        if (scalar === ScalarType.INT32 || scalar === ScalarType.UINT32 || scalar === ScalarType.SINT32) return `${w.lo | 0}:0`;
        return `${w.lo | 0}:${w.hi | 0}`;
      }
    }
  }

  private growOccurrences(): void {
    const n = this.occPos.length * 2;
    const pos = new Int32Array(n);
    pos.set(this.occPos);
    const wt = new Uint8Array(n);
    wt.set(this.occWt);
    const next = new Int32Array(n);
    next.set(this.occNext);
    this.occPos = pos;
    this.occWt = wt;
    this.occNext = next;
  }
}
