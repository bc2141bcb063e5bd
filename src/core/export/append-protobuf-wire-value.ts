/**
 * One Protobuf value's wire bytes straight into the export's Arrow columns (arrow-column-builders.ts):
 * the cells the full decoder's message would give through toParquetMessageValue (set fields;
 * implicit-presence defaults null; enums by name; 64-bit integers as two words; strings and bytes
 * copied as they lie), without a message object in between.
 *
 * It takes the plain, common case and leaves every other value to the full decoder (returns false,
 * having appended nothing the caller does not roll back): a singular field or a oneof set twice
 * (last-wins and merging), a map key given twice, a group, a required field missing, an unknown
 * field below the root (its place in the list follows the decoded message's walk), a closed enum's
 * unknown number, a string that is not valid UTF-8, a message the Parquet schema cut off by
 * recursion, a truncated or malformed payload (the decoder then gives the exact error), depth near
 * the recursion limit. What it accepts, it writes exactly as the full path does
 * (tests/export/arrow-wire-columns.test.ts compares both on every fixture state and on crafted values).
 * The walk (occurrences, map entries, key identities) and the plan compiler are the three wire paths'
 * one (walk-protobuf-wire.ts).
 */
import { ScalarType, type DescMessage } from '@bufbuild/protobuf';
import { decodeUtf8 } from '../protobuf';
import {
  BoolColumnBuilder,
  BytesColumnBuilder,
  NumberColumnBuilder,
  Int64ColumnBuilder,
  ListColumnBuilder,
  StructColumnBuilder,
  type ColumnBuilder,
} from './arrow-column-builders';
import type { ParquetNode } from './parquet-schema-types';
import { appendScalarDefault, compileMessagePlan, enumName, type EnumNames, type FieldPlan, type MessagePlan } from './compile-wire-append-plan';
import { ProtobufWireWalk, WIRE_FALLBACK as FALLBACK } from './walk-protobuf-wire';

export type { WireUnknownField } from './walk-protobuf-wire';

export class ProtobufWireAppender extends ProtobufWireWalk {
  private readonly root: MessagePlan;
  private readonly maxDepth: number;

  constructor(desc: DescMessage, nodes: readonly ParquetNode[], builder: StructColumnBuilder, recursionLimit: number) {
    super();
    this.root = compileMessagePlan(desc, nodes, builder);
    this.maxDepth = recursionLimit - 2;
  }

  /**
   * Appends the message in bytes[start, end) as one cell of the root struct's children (the caller
   * appends the struct's own validity); false: the value is not the plain case (see the header), and
   * the cells appended so far must be rolled back.
   */
  append(bytes: Uint8Array, start: number, end: number): boolean {
    this.begin(bytes, start, end);
    try {
      this.appendMessage(this.root, start, end, 0);
      return true;
    } catch (e) {
      if (e === FALLBACK) return false;
      throw e;
    } finally {
      this.w.release();
    }
  }

  private appendMessage(plan: MessagePlan, start: number, end: number, depth: number): void {
    if (depth > this.maxDepth) throw FALLBACK;
    const w = this.w;
    const base = this.top;
    this.scanFields(plan, start, end, depth);
    const { first, count } = plan;
    // the occurrences are read before any nested message reuses the plan's scratch (a plan is never nested in itself)
    const fields = plan.fields;
    for (let f = 0; f < fields.length; f++) {
      const fp = fields[f]!;
      const n = count[f]!;
      if (n === 0) {
        if (fp.required) throw FALLBACK;
        fp.builder.appendNull();
        continue;
      }
      switch (fp.kind) {
        case 'scalar':
          this.appendScalarAt(fp.builder, fp.scalar!, this.occPos[first[f]!]!, end, fp.implicit);
          break;
        case 'enum':
          this.appendEnumAt(fp.builder as BytesColumnBuilder, fp.enumNames!, this.occPos[first[f]!]!, end, fp.implicit);
          break;
        case 'message': {
          if (fp.child === undefined) throw FALLBACK;
          const stop = w.lengthDelimitedAt(this.occPos[first[f]!]!, end);
          const struct = fp.builder as StructColumnBuilder;
          this.appendMessage(fp.child, w.pos, stop, depth + 1);
          struct.appendValid();
          break;
        }
        case 'list':
          this.appendList(fp, first[f]!, end, depth);
          break;
        case 'map':
          this.appendMap(fp, first[f]!, n, end, depth);
          break;
      }
    }
    this.top = base;
  }

  private appendList(fp: FieldPlan, firstOcc: number, end: number, depth: number): void {
    if (!(fp.builder instanceof ListColumnBuilder)) throw FALLBACK;
    const list = fp.builder;
    const element = fp.element!;
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
      const pos = this.occPos[o]!;
      const wt = this.occWt[o]!;
      if (fp.child !== undefined) {
        const stop = this.w.lengthDelimitedAt(pos, end);
        this.appendMessage(fp.child, this.w.pos, stop, depth + 1);
        (element as StructColumnBuilder).appendValid();
      } else if (fp.field.fieldKind === 'list' && fp.field.listKind === 'message') {
        throw FALLBACK;
      } else if (wt === 2 && (fp.enumNames !== undefined || (fp.scalar !== ScalarType.STRING && fp.scalar !== ScalarType.BYTES))) {
        // packed
        const stop = this.w.lengthDelimitedAt(pos, end);
        let p = this.w.pos;
        while (p < stop) {
          p =
            fp.enumNames !== undefined
              ? this.appendEnumAt(element as BytesColumnBuilder, fp.enumNames, p, stop, false)
              : this.appendScalarAt(element, fp.scalar!, p, stop, false);
        }
        if (p !== stop) throw FALLBACK;
      } else if (fp.enumNames !== undefined) {
        this.appendEnumAt(element as BytesColumnBuilder, fp.enumNames, pos, end, false);
      } else {
        this.appendScalarAt(element, fp.scalar!, pos, end, false);
      }
    }
    list.endList(true);
  }

  private appendMap(fp: FieldPlan, firstOcc: number, count: number, end: number, depth: number): void {
    if (depth + 1 > this.maxDepth || !(fp.builder instanceof ListColumnBuilder)) throw FALLBACK;
    const list = fp.builder;
    const entry = fp.element as StructColumnBuilder;
    const keyBuilder = entry.children[0]!;
    const valueBuilder = entry.children[1]!;
    // a key given twice: the decoder keeps the first place and the last value (the full decoder's case)
    const seen = count > 1 ? new Set<string>() : undefined;
    const w = this.w;
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
      const stop = this.scanEntry(fp, o, end);
      const keyAt = this.keyAt;
      const valueAt = this.valueAt;
      if (seen !== undefined) {
        const id = this.identifyKey(fp.mapKey!, keyAt, stop);
        if (seen.has(id)) throw FALLBACK;
        seen.add(id);
      }
      if (keyAt < 0) appendScalarDefault(keyBuilder, fp.mapKey!);
      else this.appendScalarAt(keyBuilder, fp.mapKey!, keyAt, stop, false);
      if (fp.mapKind === 'message') {
        if (fp.child === undefined) throw FALLBACK;
        if (valueAt < 0) this.appendMessage(fp.child, 0, 0, depth + 2);
        else {
          const valueEnd = w.lengthDelimitedAt(valueAt, stop);
          this.appendMessage(fp.child, w.pos, valueEnd, depth + 2);
        }
        (valueBuilder as StructColumnBuilder).appendValid();
      } else if (fp.mapKind === 'enum') {
        if (valueAt < 0) {
          const n = fp.enumNames!.desc.values[0]?.number ?? 0;
          (valueBuilder as BytesColumnBuilder).appendBytes(...enumName(fp.enumNames!, n));
        } else this.appendEnumAt(valueBuilder as BytesColumnBuilder, fp.enumNames!, valueAt, stop, false);
      } else if (valueAt < 0) {
        appendScalarDefault(valueBuilder, fp.scalar!);
      } else {
        this.appendScalarAt(valueBuilder, fp.scalar!, valueAt, stop, false);
      }
      entry.appendValid();
    }
    list.endList(true);
  }

  /** one scalar at pos into builder (implicit: a default value is a null cell); the position after it */
  private appendScalarAt(builder: ColumnBuilder, scalar: ScalarType, pos: number, end: number, implicit: boolean): number {
    const w = this.w;
    const b = w.buf;
    switch (scalar) {
      case ScalarType.STRING:
      case ScalarType.BYTES: {
        const valueEnd = w.lengthDelimitedAt(pos, end);
        const p = w.pos;
        const n = valueEnd - p;
        if (implicit && n === 0) builder.appendNull();
        else if (scalar === ScalarType.BYTES) (builder as BytesColumnBuilder).appendBytes(b, p, p + n);
        // a string: copied while its bytes are checked for ASCII; anything else must be valid UTF-8 (the cell is rolled back with the value if not)
        else if (!(builder as BytesColumnBuilder).appendAsciiChecked(b, p, p + n) && decodeUtf8(b, p, p + n, true) === undefined) throw FALLBACK;
        return p + n;
      }
      case ScalarType.INT32:
      case ScalarType.UINT32: {
        const p = w.skipVarintAt(pos, end);
        if (implicit && w.lo === 0) builder.appendNull();
        else (builder as NumberColumnBuilder).appendNumber(w.lo | 0);
        return p;
      }
      case ScalarType.SINT32: {
        const p = w.skipVarintAt(pos, end);
        const n = w.lo;
        if (implicit && n === 0) builder.appendNull();
        else (builder as NumberColumnBuilder).appendNumber((n >>> 1) ^ -(n & 1));
        return p;
      }
      case ScalarType.INT64:
      case ScalarType.UINT64: {
        const p = w.skipVarintAt(pos, end);
        if (implicit && w.lo === 0 && w.hi === 0) builder.appendNull();
        else (builder as Int64ColumnBuilder).appendWords(w.lo, w.hi);
        return p;
      }
      case ScalarType.SINT64: {
        const p = w.skipVarintAt(pos, end);
        const lo = w.lo;
        const hi = w.hi;
        if (implicit && lo === 0 && hi === 0) builder.appendNull();
        else {
          let l = (lo >>> 1) | (hi << 31);
          let h = hi >>> 1;
          if (lo & 1) {
            l = ~l;
            h = ~h;
          }
          (builder as Int64ColumnBuilder).appendWords(l, h);
        }
        return p;
      }
      case ScalarType.BOOL: {
        const p = w.skipVarintAt(pos, end);
        const v = w.lo !== 0 || w.hi !== 0;
        if (implicit && !v) builder.appendNull();
        else (builder as BoolColumnBuilder).appendBool(v);
        return p;
      }
      case ScalarType.FIXED32:
      case ScalarType.SFIXED32:
      case ScalarType.FLOAT: {
        if (pos + 4 > end) throw FALLBACK;
        const bits = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16) | (b[pos + 3]! << 24);
        if (implicit && bits === 0) builder.appendNull();
        else if (scalar === ScalarType.FLOAT) {
          SCRATCH_U32[0] = bits;
          (builder as NumberColumnBuilder).appendNumber(SCRATCH_F32[0]!);
        } else (builder as NumberColumnBuilder).appendNumber(bits);
        return pos + 4;
      }
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64:
      case ScalarType.DOUBLE: {
        if (pos + 8 > end) throw FALLBACK;
        const lo = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16) | (b[pos + 3]! << 24);
        const hi = b[pos + 4]! | (b[pos + 5]! << 8) | (b[pos + 6]! << 16) | (b[pos + 7]! << 24);
        if (implicit && lo === 0 && hi === 0) builder.appendNull();
        else if (scalar === ScalarType.DOUBLE) {
          SCRATCH_U32[0] = lo;
          SCRATCH_U32[1] = hi;
          (builder as NumberColumnBuilder).appendNumber(SCRATCH_F64[0]!);
        } else (builder as Int64ColumnBuilder).appendWords(lo, hi);
        return pos + 8;
      }
    }
  }

  private appendEnumAt(builder: BytesColumnBuilder, names: EnumNames, pos: number, end: number, implicit: boolean): number {
    const p = this.w.skipVarintAt(pos, end);
    const n = this.w.lo | 0;
    if (implicit && n === 0) {
      builder.appendNull();
      return p;
    }
    if (names.closed && !names.names.has(n)) throw FALLBACK;
    builder.appendBytes(...enumName(names, n));
    return p;
  }
}

const SCRATCH = new ArrayBuffer(8);
const SCRATCH_U32 = new Uint32Array(SCRATCH);
const SCRATCH_F32 = new Float32Array(SCRATCH);
const SCRATCH_F64 = new Float64Array(SCRATCH);
