/**
 * One Protobuf value's wire bytes straight into its compact ProtoJSON text — exactly what the full path
 * writes for JSON Lines and CSV (JSON.stringify(formatProtobufJson(message)) of the decoded message) —
 * without a message object or JSON object tree in between: the text exports' counterpart of the Arrow
 * export's wire appender (append-protobuf-wire-value.ts), built the same way (one WireCursor, an
 * occurrence stack per message, fields written in field-number order).
 *
 * It takes the plain, common case and leaves every other value to the full decoder (returns undefined):
 * a singular field or a oneof set twice (last-wins and merging), a map key given twice, a group, a
 * required field missing, an unknown field below the root, a closed enum's unknown number, a string that
 * is not valid UTF-8, a well-known type (google.protobuf.*: its own JSON form), a map key
 * `__proto__`, a truncated or malformed payload (the decoder then gives the exact error), depth near the
 * recursion limit. What it accepts, it writes exactly as the full path does
 * (tests/export/text-wire-json.test.ts compares both on every fixture state and on crafted values).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { encodeBase64 } from '../flink';
import { decodeUtf8, getAcceptedWireTypes, getJsonName, WireCursor } from '../protobuf';
import type { WireUnknownField } from './append-protobuf-wire-value';
import { FALLBACK, float32Json, float64Json, int64Text, isArrayIndex, scalarDefaultJson, scalarDefaultKey, stringJson } from './wire-json-scalars';
import { wireTypeOf } from './compile-wire-append-plan';

/** field numbers looked up in an array (below) or a Map (above) */
const DENSE_NUMBERS = 128;

interface JsonFieldPlan {
  /** index in the message plan's fields (ascending field numbers) */
  index: number;
  field: DescField;
  kind: DescField['fieldKind'];
  /** `"jsonName":` */
  key: string;
  /** scalar, list of scalars, map value scalar */
  scalar: ScalarType | undefined;
  accepts: number;
  implicit: boolean;
  required: boolean;
  oneof: number;
  /** enum, list of enums, map of enums: each declared number's JSON text (its name as formatProtobufJson picks it) */
  enumText: Map<number, string> | undefined;
  closedEnum: boolean;
  /** message, list of messages, map of messages: the nested message (its plan made when first needed) */
  message: DescMessage | undefined;
  mapKey: ScalarType | undefined;
  mapKind: 'scalar' | 'enum' | 'message' | undefined;
}

interface JsonMessagePlan {
  fields: JsonFieldPlan[];
  dense: (JsonFieldPlan | undefined)[];
  byNumber: Map<number, JsonFieldPlan>;
  oneofs: number;
  wellKnown: boolean;
}

/** per nesting depth: a message's first and last occurrence (index into the occurrence stack) and count per field, the field set per oneof */
interface DepthScratch {
  first: Int32Array;
  last: Int32Array;
  count: Int32Array;
  oneofSet: Int32Array;
}

export class ProtobufWireJsonWriter {
  private readonly plans = new Map<DescMessage, JsonMessagePlan>();
  private readonly root: JsonMessagePlan;
  private readonly scratch: DepthScratch[] = [];
  /** occurrence stack: value start (after the tag), wire type, next occurrence of the same field */
  private occPos = new Int32Array(1024);
  private occWt = new Uint8Array(1024);
  private occNext = new Int32Array(1024);
  private top = 0;
  /** the position after the last scalar read */
  private next = 0;
  private readonly w = new WireCursor(() => {
    throw FALLBACK;
  });
  private readonly maxDepth: number;
  /** the root's unknown fields of the last value written */
  readonly unknown: WireUnknownField[] = [];

  constructor(desc: DescMessage, recursionLimit: number) {
    this.root = this.planOf(desc);
    this.maxDepth = recursionLimit - 2;
  }

  /** The message in bytes[start, end) as compact ProtoJSON text; undefined: not the plain case (the full decoder's). */
  write(bytes: Uint8Array, start: number, end: number): string | undefined {
    this.w.reset(bytes, start, end);
    this.top = 0;
    this.unknown.length = 0;
    try {
      return this.message(this.root, start, end, 0);
    } catch (e) {
      if (e === FALLBACK) return undefined;
      throw e;
    } finally {
      this.w.release();
    }
  }

  private planOf(desc: DescMessage): JsonMessagePlan {
    let plan = this.plans.get(desc);
    if (plan !== undefined) return plan;
    const fields = [...desc.fields]
      .sort((a, b) => a.number - b.number)
      .map((field, index): JsonFieldPlan => {
        const e = field.fieldKind === 'enum' ? field.enum : field.fieldKind === 'list' && field.listKind === 'enum' ? field.enum : undefined;
        const mapEnum = field.fieldKind === 'map' && field.mapKind === 'enum' ? field.enum : undefined;
        const en = e ?? mapEnum;
        let enumText: Map<number, string> | undefined;
        if (en !== undefined) {
          enumText = new Map();
          // formatProtobufJson's name: the enum's value record by number
          for (const v of en.values) enumText.set(v.number, JSON.stringify(en.value[v.number]!.name));
        }
        return {
          index,
          field,
          kind: field.fieldKind,
          key: `${JSON.stringify(getJsonName(field))}:`,
          scalar: field.fieldKind === 'scalar' || field.fieldKind === 'list' || field.fieldKind === 'map' ? (field.scalar ?? undefined) : undefined,
          accepts: getAcceptedWireTypes(field),
          implicit: field.oneof === undefined && field.presence === FeatureSet_FieldPresence.IMPLICIT,
          required: field.proto.label === 2,
          oneof: field.oneof === undefined ? -1 : desc.oneofs.indexOf(field.oneof),
          enumText,
          closedEnum: en !== undefined && !en.open,
          message: field.message,
          mapKey: field.fieldKind === 'map' ? field.mapKey : undefined,
          mapKind: field.fieldKind === 'map' ? field.mapKind : undefined,
        };
      });
    plan = {
      fields,
      dense: Array.from({ length: DENSE_NUMBERS }, (_, no) => fields.find((f) => f.field.number === no)),
      byNumber: new Map(fields.map((f) => [f.field.number, f])),
      oneofs: desc.oneofs.length,
      wellKnown: desc.typeName.startsWith('google.protobuf.'),
    };
    this.plans.set(desc, plan);
    return plan;
  }

  private scratchAt(depth: number, fields: number, oneofs: number): DepthScratch {
    let s = this.scratch[depth];
    if (s === undefined || s.first.length < fields || s.oneofSet.length < oneofs) {
      const n = Math.max(fields, s?.first.length ?? 0, 8);
      const o = Math.max(oneofs, s?.oneofSet.length ?? 0, 1);
      s = { first: new Int32Array(n), last: new Int32Array(n), count: new Int32Array(n), oneofSet: new Int32Array(o) };
      this.scratch[depth] = s;
    }
    return s;
  }

  private message(plan: JsonMessagePlan, start: number, end: number, depth: number): string {
    if (depth > this.maxDepth || plan.wellKnown) throw FALLBACK;
    const w = this.w;
    const base = this.top;
    const nFields = plan.fields.length;
    const { first, last, count, oneofSet } = this.scratchAt(depth, nFields, plan.oneofs);
    count.fill(0, 0, nFields);
    if (plan.oneofs > 0) oneofSet.fill(-1, 0, plan.oneofs);
    let p = start;
    while (p < end) {
      const tagStart = p;
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
        if (depth > 0) throw FALLBACK;
        this.unknown.push({ number: no, wireType: wt, start: tagStart, end: p });
        continue;
      }
      const i = fp.index;
      if (fp.kind !== 'list' && fp.kind !== 'map' && count[i]! > 0) throw FALLBACK;
      if (fp.oneof >= 0) {
        if (oneofSet[fp.oneof]! >= 0 && oneofSet[fp.oneof] !== i) throw FALLBACK;
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
    if (p !== end) throw FALLBACK;
    // the first occurrences are taken before any nested message reuses the scratch of a deeper level
    let out = '{';
    let members = 0;
    for (let f = 0; f < nFields; f++) {
      const n = count[f]!;
      const fp = plan.fields[f]!;
      if (n === 0) {
        if (fp.required) throw FALLBACK;
        continue;
      }
      const occ = first[f]!;
      let text: string | undefined;
      switch (fp.kind) {
        case 'scalar':
          text = this.scalarAt(fp.scalar!, this.occPos[occ]!, end, fp.implicit);
          break;
        case 'enum':
          text = this.enumAt(fp, this.occPos[occ]!, end, fp.implicit);
          break;
        case 'message': {
          const stop = w.lengthDelimitedAt(this.occPos[occ]!, end);
          text = this.message(this.planOf(fp.message!), w.pos, stop, depth + 1);
          break;
        }
        case 'list':
          text = this.list(fp, occ, end, depth);
          break;
        case 'map':
          text = this.map(fp, occ, n, end, depth);
          break;
      }
      if (text === undefined) continue;
      out += members++ === 0 ? fp.key + text : `,${fp.key}${text}`;
    }
    this.top = base;
    return `${out}}`;
  }

  /** a repeated field's array, or undefined when it has no elements (a packed run of none) */
  private list(fp: JsonFieldPlan, firstOcc: number, end: number, depth: number): string | undefined {
    const w = this.w;
    let out = '[';
    let items = 0;
    const child = fp.message === undefined ? undefined : this.planOf(fp.message);
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
      const pos = this.occPos[o]!;
      const wt = this.occWt[o]!;
      if (child !== undefined) {
        const stop = w.lengthDelimitedAt(pos, end);
        const text = this.message(child, w.pos, stop, depth + 1);
        out += items++ === 0 ? text : `,${text}`;
      } else if (wt === 2 && (fp.enumText !== undefined || (fp.scalar !== ScalarType.STRING && fp.scalar !== ScalarType.BYTES))) {
        // packed
        const stop = w.lengthDelimitedAt(pos, end);
        let p = w.pos;
        while (p < stop) {
          const text = fp.enumText !== undefined ? this.enumAt(fp, p, stop, false)! : this.scalarAt(fp.scalar!, p, stop, false)!;
          out += items++ === 0 ? text : `,${text}`;
          p = this.next;
        }
        if (p !== stop) throw FALLBACK;
      } else {
        const text = fp.enumText !== undefined ? this.enumAt(fp, pos, end, false)! : this.scalarAt(fp.scalar!, pos, end, false)!;
        out += items++ === 0 ? text : `,${text}`;
      }
    }
    return items === 0 ? undefined : `${out}]`;
  }

  /** a map field's object: keys as formatProtobufJson sets them (a key twice is the full decoder's case), array-index keys first */
  private map(fp: JsonFieldPlan, firstOcc: number, count: number, end: number, depth: number): string {
    if (depth + 1 > this.maxDepth) throw FALLBACK;
    const w = this.w;
    const keyTag = (1 << 3) | wireTypeOf(fp.mapKey!);
    const valueTag = (2 << 3) | (fp.mapKind === 'scalar' ? wireTypeOf(fp.scalar!) : fp.mapKind === 'enum' ? 0 : 2);
    const child = fp.mapKind === 'message' ? this.planOf(fp.message!) : undefined;
    const keys: string[] = [];
    const values: string[] = [];
    let indexKeys = false;
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
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
        if (tag === keyTag) keyAt = at;
        else if (tag === valueTag) {
          if (fp.mapKind === 'message' && valueAt >= 0) throw FALLBACK;
          valueAt = at;
        }
      }
      if (p !== stop) throw FALLBACK;
      const key = keyAt < 0 ? scalarDefaultKey(fp.mapKey!) : this.mapKeyAt(fp.mapKey!, keyAt, stop);
      if (key === '__proto__') throw FALLBACK;
      if (!indexKeys && isArrayIndex(key)) indexKeys = true;
      let value: string;
      if (child !== undefined) {
        if (valueAt < 0) value = this.message(child, 0, 0, depth + 2);
        else {
          const valueEnd = w.lengthDelimitedAt(valueAt, stop);
          value = this.message(child, w.pos, valueEnd, depth + 2);
        }
      } else if (fp.mapKind === 'enum') {
        if (valueAt < 0) {
          const e = (fp.field as Extract<DescField, { fieldKind: 'map' }>).enum!;
          value = JSON.stringify(e.value[e.values[0]?.number ?? 0]?.name ?? 0);
        } else value = this.enumAt(fp, valueAt, stop, false)!;
      } else value = valueAt < 0 ? scalarDefaultJson(fp.scalar!) : this.scalarAt(fp.scalar!, valueAt, stop, false)!;
      keys.push(key);
      values.push(value);
    }
    if (count > 1 && new Set(keys).size !== keys.length) throw FALLBACK;
    let order: number[] | undefined;
    if (indexKeys) {
      const idx = keys.map((_, i) => i);
      const isIdx = keys.map(isArrayIndex);
      order = [...idx.filter((i) => isIdx[i]).sort((a, b) => Number(keys[a]) - Number(keys[b])), ...idx.filter((i) => !isIdx[i])];
    }
    let out = '{';
    for (let k = 0; k < keys.length; k++) {
      const i = order === undefined ? k : order[k]!;
      out += `${k === 0 ? '' : ','}${JSON.stringify(keys[i])}:${values[i]}`;
    }
    return `${out}}`;
  }

  /** a map key's member name: String(formatScalar(key)) */
  private mapKeyAt(scalar: ScalarType, at: number, end: number): string {
    if (scalar === ScalarType.STRING) {
      const stop = this.w.lengthDelimitedAt(at, end);
      const text = decodeUtf8(this.w.buf, this.w.pos, stop, true);
      if (text === undefined) throw FALLBACK;
      return text;
    }
    const json = this.scalarAt(scalar, at, end, false)!;
    // 64-bit keys are JSON strings: the member name is the digits
    return json.charCodeAt(0) === 34 ? json.slice(1, -1) : json;
  }

  private enumAt(fp: JsonFieldPlan, pos: number, end: number, implicit: boolean): string | undefined {
    this.next = this.w.skipVarintAt(pos, end);
    const n = this.w.lo | 0;
    if (implicit && n === 0) return undefined;
    const text = fp.enumText!.get(n);
    if (text !== undefined) return text;
    if (fp.closedEnum) throw FALLBACK;
    return String(n);
  }

  /** one scalar's JSON text at pos (implicit: a default value is undefined, not written); this.next is the position after it */
  private scalarAt(scalar: ScalarType, pos: number, end: number, implicit: boolean): string | undefined {
    const w = this.w;
    const b = w.buf;
    switch (scalar) {
      case ScalarType.STRING:
      case ScalarType.BYTES: {
        const stop = w.lengthDelimitedAt(pos, end);
        const p = w.pos;
        this.next = stop;
        if (implicit && stop === p) return undefined;
        if (scalar === ScalarType.BYTES) return `"${encodeBase64(b.subarray(p, stop))}"`;
        return stringJson(b, p, stop);
      }
      case ScalarType.INT32:
        this.next = w.skipVarintAt(pos, end);
        return implicit && w.lo === 0 ? undefined : String(w.lo | 0);
      case ScalarType.UINT32:
        this.next = w.skipVarintAt(pos, end);
        return implicit && w.lo === 0 ? undefined : String(w.lo >>> 0);
      case ScalarType.SINT32: {
        this.next = w.skipVarintAt(pos, end);
        const n = w.lo;
        return implicit && n === 0 ? undefined : String((n >>> 1) ^ -(n & 1));
      }
      case ScalarType.INT64:
      case ScalarType.UINT64: {
        this.next = w.skipVarintAt(pos, end);
        return implicit && w.lo === 0 && w.hi === 0 ? undefined : `"${int64Text(w.lo, w.hi, scalar === ScalarType.INT64)}"`;
      }
      case ScalarType.SINT64: {
        this.next = w.skipVarintAt(pos, end);
        const lo = w.lo;
        const hi = w.hi;
        if (implicit && lo === 0 && hi === 0) return undefined;
        let l = (lo >>> 1) | (hi << 31);
        let h = hi >>> 1;
        if (lo & 1) {
          l = ~l;
          h = ~h;
        }
        return `"${int64Text(l, h, true)}"`;
      }
      case ScalarType.BOOL: {
        this.next = w.skipVarintAt(pos, end);
        const v = w.lo !== 0 || w.hi !== 0;
        return implicit && !v ? undefined : v ? 'true' : 'false';
      }
      case ScalarType.FIXED32:
      case ScalarType.SFIXED32:
      case ScalarType.FLOAT: {
        if (pos + 4 > end) throw FALLBACK;
        this.next = pos + 4;
        const bits = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16) | (b[pos + 3]! << 24);
        if (implicit && bits === 0) return undefined;
        if (scalar === ScalarType.FIXED32) return String(bits >>> 0);
        if (scalar === ScalarType.SFIXED32) return String(bits | 0);
        return float32Json(bits);
      }
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64:
      case ScalarType.DOUBLE: {
        if (pos + 8 > end) throw FALLBACK;
        this.next = pos + 8;
        const lo = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16) | (b[pos + 3]! << 24);
        const hi = b[pos + 4]! | (b[pos + 5]! << 8) | (b[pos + 6]! << 16) | (b[pos + 7]! << 24);
        if (implicit && lo === 0 && hi === 0) return undefined;
        if (scalar !== ScalarType.DOUBLE) return `"${int64Text(lo, hi, scalar === ScalarType.SFIXED64)}"`;
        return float64Json(lo, hi);
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
