/**
 * One Protobuf value's wire bytes straight into the Parquet export's leaf columns (ParquetLeafColumn:
 * values with their definition and repetition levels), the slots shredParquetColumn would give for the
 * group toParquetMessageValue makes of the decoded message (set fields; implicit-presence defaults
 * null; enums by name, UNKNOWN_ENUM_VALUE_<Enum>_<n> for undeclared numbers; 64-bit integers as bigint;
 * strings as text, bytes copied), without a message object or group value in between: the Parquet
 * counterpart of the Arrow export's wire appender (append-protobuf-wire-value.ts), on the same walk
 * (walk-protobuf-wire.ts). Definition levels are fixed per schema node, so each field's are compiled
 * with its plan; the repetition level of a subtree's first slot is handed down.
 *
 * It takes the plain case and leaves the others to the full decoder (returns false; the caller rolls
 * back the slots pushed): those the Arrow appender leaves (see its header), and a message, repeated
 * message or map the Parquet schema cut off by recursion (written as serialized bytes there). What it
 * accepts, it writes exactly as the full path does (tests/export/parquet-wire-columns.test.ts compares
 * whole files on every fixture state and on crafted and random values).
 */
import { ScalarType, type DescMessage } from '@bufbuild/protobuf';
import { decodeUtf8 } from '../protobuf';
import type { ParquetListLayout } from './export-types';
import type { ParquetNode } from './parquet-schema-types';
import type { ParquetLeafColumn } from './shred-parquet-column';
import type { ParquetValue } from './to-parquet-message-value';
import { compileWirePlan, ProtobufWireWalk, WIRE_FALLBACK, type WireField, type WireMessagePlan } from './walk-protobuf-wire';

interface ParquetField extends WireField {
  /** every leaf column below the field's node (an absent field: a null slot in each) */
  leaves: ParquetLeafColumn[];
  /** the definition level of an absent field (its group's) */
  nullDef: number;
  /** the field's value leaf (singular scalar or enum, list element, map value), its definition level when present */
  leaf: ParquetLeafColumn | undefined;
  valueDef: number;
  /** list and map: the repetition level of the repeated node (an element after the first) */
  repLevel: number;
  /** map: the key leaf and its definition level */
  keyLeaf: ParquetLeafColumn | undefined;
  keyDef: number;
  /** message, list of messages, map of messages: the nested plan (undefined: cut off by recursion, the full decoder's case) */
  child: WireMessagePlan<ParquetField> | undefined;
  /** enum: each number's name (the first value declared with it) */
  enumNames: Map<number, string> | undefined;
  closedEnum: boolean;
}

type LeafOf = (node: ParquetNode) => ParquetLeafColumn;

/** levels below a node: the definition and repetition levels its presence reaches */
function levelsOf(node: ParquetNode, def: number, rep: number): [number, number] {
  return [node.repetition === 'REQUIRED' ? def : def + 1, node.repetition === 'REPEATED' ? rep + 1 : rep];
}

function collectLeaves(node: ParquetNode, leafOf: LeafOf, out: ParquetLeafColumn[]): ParquetLeafColumn[] {
  if (node.children === undefined) out.push(leafOf(node));
  else for (const c of node.children) collectLeaves(c, leafOf, out);
  return out;
}

function compileParquetPlan(
  desc: DescMessage,
  nodes: readonly ParquetNode[],
  def: number,
  rep: number,
  layout: ParquetListLayout,
  leafOf: LeafOf,
): WireMessagePlan<ParquetField> {
  return compileWirePlan(desc, (base): ParquetField => {
    const node = nodes[base.index]!;
    const plan: ParquetField = {
      ...base,
      leaves: collectLeaves(node, leafOf, []),
      nullDef: def,
      leaf: undefined,
      valueDef: 0,
      repLevel: 0,
      keyLeaf: undefined,
      keyDef: 0,
      child: undefined,
      enumNames: undefined,
      closedEnum: base.enumDesc !== undefined && !base.enumDesc.open,
    };
    if (base.enumDesc !== undefined) {
      plan.enumNames = new Map();
      for (const v of base.enumDesc.values) if (!plan.enumNames.has(v.number)) plan.enumNames.set(v.number, v.name);
    }
    const [d1, r1] = levelsOf(node, def, rep);
    const spec = layout === 'spec' && node.logical !== undefined;
    switch (base.kind) {
      case 'scalar':
      case 'enum':
        plan.leaf = leafOf(node);
        plan.valueDef = d1;
        break;
      case 'message':
        if (node.children !== undefined) plan.child = compileParquetPlan(base.message!, node.children, d1, r1, layout, leafOf);
        break;
      case 'list': {
        // legacy: the field's node is the repeated element; spec: LIST → repeated `list` → `element`
        if (node.repetition !== 'REPEATED' && !spec) break;
        const repeated = spec ? node.children![0]! : node;
        const [d2, r2] = spec ? levelsOf(repeated, d1, r1) : [d1, r1];
        const element = spec ? repeated.children![0]! : node;
        const [d3] = spec ? levelsOf(element, d2, r2) : [d2];
        plan.repLevel = r2;
        if (base.message !== undefined) {
          if (element.children !== undefined) plan.child = compileParquetPlan(base.message, element.children, d3, r2, layout, leafOf);
        } else {
          plan.leaf = leafOf(element);
          plan.valueDef = d3;
        }
        break;
      }
      case 'map': {
        // legacy: the field's node is the repeated entry group; spec: MAP → repeated `key_value`; cut off: a binary (the full decoder's)
        if (node.repetition !== 'REPEATED' && !spec) break;
        const entry = spec ? node.children![0]! : node;
        const [d2, r2] = spec ? levelsOf(entry, d1, r1) : [d1, r1];
        const [keyNode, valueNode] = entry.children as [ParquetNode, ParquetNode];
        plan.repLevel = r2;
        plan.keyLeaf = leafOf(keyNode);
        [plan.keyDef] = levelsOf(keyNode, d2, r2);
        const [dv] = levelsOf(valueNode, d2, r2);
        if (base.mapKind !== 'message') {
          plan.leaf = leafOf(valueNode);
          plan.valueDef = dv;
        } else if (valueNode.children !== undefined) plan.child = compileParquetPlan(base.message!, valueNode.children, dv, r2, layout, leafOf);
        break;
      }
    }
    return plan;
  });
}

export class ProtobufWireParquetShredder extends ProtobufWireWalk {
  private readonly root: WireMessagePlan<ParquetField>;
  private readonly maxDepth: number;
  /** the position after the last scalar read, and whether it was its type's default */
  private next = 0;
  private zero = false;

  /** `nodes`: the value group's children, whose presence is definition level `def` (the value column's) */
  constructor(desc: DescMessage, nodes: readonly ParquetNode[], def: number, layout: ParquetListLayout, leafOf: LeafOf, recursionLimit: number) {
    super();
    this.root = compileParquetPlan(desc, nodes, def, 0, layout, leafOf);
    this.maxDepth = recursionLimit - 2;
  }

  /** Shreds the message in bytes[start, end) as one row's value group (present); false: not the plain case, roll back the leaves. */
  shred(bytes: Uint8Array, start: number, end: number): boolean {
    this.begin(bytes, start, end);
    try {
      this.message(this.root, start, end, 0, 0);
      return true;
    } catch (e) {
      if (e === WIRE_FALLBACK) return false;
      throw e;
    } finally {
      this.w.release();
    }
  }

  private message(plan: WireMessagePlan<ParquetField>, start: number, end: number, depth: number, rep: number): void {
    if (depth > this.maxDepth) throw WIRE_FALLBACK;
    const base = this.top;
    this.scanFields(plan, start, end, depth);
    // the occurrences are read before any nested message reuses the plan's scratch (a plan is never nested in itself)
    const { fields, first, count } = plan;
    for (let f = 0; f < fields.length; f++) {
      const fp = fields[f]!;
      const n = count[f]!;
      if (n === 0) {
        if (fp.required) throw WIRE_FALLBACK;
        this.absent(fp, rep);
        continue;
      }
      switch (fp.kind) {
        case 'scalar':
        case 'enum': {
          const v = fp.enumNames !== undefined ? this.enumAt(fp, this.occPos[first[f]!]!, end) : this.scalarAt(fp.scalar!, this.occPos[first[f]!]!, end);
          if (fp.implicit && this.zero) fp.leaf!.push(null, fp.nullDef, rep);
          else fp.leaf!.push(v, fp.valueDef, rep);
          break;
        }
        case 'message': {
          if (fp.child === undefined) throw WIRE_FALLBACK;
          const stop = this.w.lengthDelimitedAt(this.occPos[first[f]!]!, end);
          this.message(fp.child, this.w.pos, stop, depth + 1, rep);
          break;
        }
        case 'list':
          this.list(fp, first[f]!, end, depth, rep);
          break;
        case 'map':
          this.map(fp, first[f]!, n, end, depth, rep);
          break;
      }
    }
    this.top = base;
  }

  private absent(fp: ParquetField, rep: number): void {
    const leaves = fp.leaves;
    for (let i = 0; i < leaves.length; i++) leaves[i]!.push(null, fp.nullDef, rep);
  }

  private list(fp: ParquetField, firstOcc: number, end: number, depth: number, rep: number): void {
    if (fp.child === undefined && fp.leaf === undefined) throw WIRE_FALLBACK;
    const w = this.w;
    let items = 0;
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
      const pos = this.occPos[o]!;
      if (fp.child !== undefined) {
        const stop = w.lengthDelimitedAt(pos, end);
        this.message(fp.child, w.pos, stop, depth + 1, items++ === 0 ? rep : fp.repLevel);
      } else if (this.occWt[o] === 2 && (fp.enumNames !== undefined || (fp.scalar !== ScalarType.STRING && fp.scalar !== ScalarType.BYTES))) {
        // packed
        const stop = w.lengthDelimitedAt(pos, end);
        let p = w.pos;
        while (p < stop) {
          const v = fp.enumNames !== undefined ? this.enumAt(fp, p, stop) : this.scalarAt(fp.scalar!, p, stop);
          fp.leaf!.push(v, fp.valueDef, items++ === 0 ? rep : fp.repLevel);
          p = this.next;
        }
        if (p !== stop) throw WIRE_FALLBACK;
      } else {
        const v = fp.enumNames !== undefined ? this.enumAt(fp, pos, end) : this.scalarAt(fp.scalar!, pos, end);
        fp.leaf!.push(v, fp.valueDef, items++ === 0 ? rep : fp.repLevel);
      }
    }
    // packed runs of no elements: the field is absent
    if (items === 0) this.absent(fp, rep);
  }

  private map(fp: ParquetField, firstOcc: number, count: number, end: number, depth: number, rep: number): void {
    if (depth + 1 > this.maxDepth || fp.keyLeaf === undefined || (fp.child === undefined && fp.leaf === undefined)) throw WIRE_FALLBACK;
    // a key given twice: the decoder keeps the first place and the last value (the full decoder's case)
    const seen = count > 1 ? new Set<string>() : undefined;
    let items = 0;
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
      const stop = this.scanEntry(fp, o, end);
      const keyAt = this.keyAt;
      const valueAt = this.valueAt;
      if (seen !== undefined) {
        const id = this.identifyKey(fp.mapKey!, keyAt, stop);
        if (seen.has(id)) throw WIRE_FALLBACK;
        seen.add(id);
      }
      const r = items++ === 0 ? rep : fp.repLevel;
      fp.keyLeaf.push(keyAt < 0 ? scalarDefault(fp.mapKey!) : this.scalarAt(fp.mapKey!, keyAt, stop), fp.keyDef, r);
      if (fp.child !== undefined) {
        if (valueAt < 0) this.message(fp.child, 0, 0, depth + 2, r);
        else {
          const valueEnd = this.w.lengthDelimitedAt(valueAt, stop);
          this.message(fp.child, this.w.pos, valueEnd, depth + 2, r);
        }
      } else if (fp.enumNames !== undefined) {
        const v = valueAt < 0 ? this.enumName(fp, fp.enumDesc!.values[0]?.number ?? 0) : this.enumAt(fp, valueAt, stop);
        fp.leaf!.push(v, fp.valueDef, r);
      } else fp.leaf!.push(valueAt < 0 ? scalarDefault(fp.scalar!) : this.scalarAt(fp.scalar!, valueAt, stop), fp.valueDef, r);
    }
  }

  private enumName(fp: ParquetField, n: number): string {
    return fp.enumNames!.get(n) ?? `UNKNOWN_ENUM_VALUE_${fp.enumDesc!.name}_${n}`;
  }

  private enumAt(fp: ParquetField, pos: number, end: number): string {
    this.next = this.w.skipVarintAt(pos, end);
    const n = this.w.lo | 0;
    this.zero = n === 0;
    if (fp.closedEnum && !fp.enumNames!.has(n)) throw WIRE_FALLBACK;
    return this.enumName(fp, n);
  }

  /** one scalar at pos as toParquetMessageValue's toScalar gives it; this.next: the position after it, this.zero: its type's default */
  private scalarAt(scalar: ScalarType, pos: number, end: number): ParquetValue {
    const w = this.w;
    const b = w.buf;
    switch (scalar) {
      case ScalarType.STRING:
      case ScalarType.BYTES: {
        const stop = w.lengthDelimitedAt(pos, end);
        const p = w.pos;
        this.next = stop;
        this.zero = stop === p;
        if (scalar === ScalarType.BYTES) return b.slice(p, stop);
        return stringAt(b, p, stop);
      }
      case ScalarType.INT32:
      case ScalarType.UINT32:
        this.next = w.skipVarintAt(pos, end);
        this.zero = w.lo === 0;
        return w.lo | 0;
      case ScalarType.SINT32: {
        this.next = w.skipVarintAt(pos, end);
        const n = w.lo;
        this.zero = n === 0;
        return (n >>> 1) ^ -(n & 1);
      }
      case ScalarType.INT64:
      case ScalarType.UINT64:
        this.next = w.skipVarintAt(pos, end);
        this.zero = w.lo === 0 && w.hi === 0;
        return int64(w.lo, w.hi);
      case ScalarType.SINT64: {
        this.next = w.skipVarintAt(pos, end);
        const lo = w.lo;
        const hi = w.hi;
        this.zero = lo === 0 && hi === 0;
        let l = (lo >>> 1) | (hi << 31);
        let h = hi >>> 1;
        if (lo & 1) {
          l = ~l;
          h = ~h;
        }
        return int64(l, h);
      }
      case ScalarType.BOOL:
        this.next = w.skipVarintAt(pos, end);
        this.zero = w.lo === 0 && w.hi === 0;
        return !this.zero;
      case ScalarType.FIXED32:
      case ScalarType.SFIXED32:
      case ScalarType.FLOAT: {
        if (pos + 4 > end) throw WIRE_FALLBACK;
        this.next = pos + 4;
        const bits = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16) | (b[pos + 3]! << 24);
        this.zero = bits === 0;
        if (scalar !== ScalarType.FLOAT) return bits;
        SCRATCH_U32[0] = bits;
        return SCRATCH_F32[0]!;
      }
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64:
      case ScalarType.DOUBLE: {
        if (pos + 8 > end) throw WIRE_FALLBACK;
        this.next = pos + 8;
        const lo = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16) | (b[pos + 3]! << 24);
        const hi = b[pos + 4]! | (b[pos + 5]! << 8) | (b[pos + 6]! << 16) | (b[pos + 7]! << 24);
        this.zero = lo === 0 && hi === 0;
        if (scalar !== ScalarType.DOUBLE) return int64(lo, hi);
        SCRATCH_U32[0] = lo;
        SCRATCH_U32[1] = hi;
        return SCRATCH_F64[0]!;
      }
    }
  }
}

const SCRATCH = new ArrayBuffer(8);
const SCRATCH_U32 = new Uint32Array(SCRATCH);
const SCRATCH_F32 = new Float32Array(SCRATCH);
const SCRATCH_F64 = new Float64Array(SCRATCH);
const TWO_32 = 4294967296;
/** |high word| below this: the value is a safe integer */
const SAFE_HIGH = 1 << 21;
const ASCII = new TextDecoder();

/** a signed 64-bit integer from its two words, as toScalar's BigInt.asIntN(64, …) */
function int64(lo: number, hi: number): bigint {
  const h = hi | 0;
  if (h >= -SAFE_HIGH && h < SAFE_HIGH) return BigInt(h * TWO_32 + (lo >>> 0));
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}

/** a proto string: ASCII read as it lies, anything else decoded (not valid UTF-8: the full decoder's case) */
function stringAt(b: Uint8Array, p: number, stop: number): string {
  let ascii = true;
  for (let i = p; i < stop; i++) {
    if (b[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return stop - p > 64 ? ASCII.decode(b.subarray(p, stop)) : String.fromCharCode.apply(null, b.subarray(p, stop) as unknown as number[]);
  const text = decodeUtf8(b, p, stop, true);
  if (text === undefined) throw WIRE_FALLBACK;
  return text;
}

/** a map's missing key or scalar value: the type's default, as toScalar gives it */
function scalarDefault(scalar: ScalarType): ParquetValue {
  switch (scalar) {
    case ScalarType.STRING:
      return '';
    case ScalarType.BYTES:
      return new Uint8Array(0);
    case ScalarType.BOOL:
      return false;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    default:
      return 0;
  }
}
