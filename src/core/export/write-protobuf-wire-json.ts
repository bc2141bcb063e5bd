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
 * The walk and the plan compiler are the three wire paths' one (walk-protobuf-wire.ts); a message's
 * plan is made when first needed and may nest in itself (its occurrences' scratch is per depth).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { encodeBase64 } from '../flink';
import { decodeUtf8, getJsonName } from '../protobuf';
import { FALLBACK, float32Json, float64Json, int64Text, isArrayIndex, scalarDefaultJson, scalarDefaultKey, stringJson } from './wire-json-scalars';
import { compileWirePlan, ProtobufWireWalk, type WireField, type WireMessagePlan, type WireScratch } from './walk-protobuf-wire';

interface JsonFieldPlan extends WireField {
  /** `"jsonName":` */
  key: string;
  /** enum, list of enums, map of enums: each declared number's JSON text (its name as formatProtobufJson picks it) */
  enumText: Map<number, string> | undefined;
  closedEnum: boolean;
}

interface JsonMessagePlan extends WireMessagePlan<JsonFieldPlan> {
  /** the fields' indices in field-number order (the order formatProtobufJson writes them) */
  order: number[];
  wellKnown: boolean;
}

export class ProtobufWireJsonWriter extends ProtobufWireWalk {
  private readonly plans = new Map<DescMessage, JsonMessagePlan>();
  private readonly root: JsonMessagePlan;
  /** per nesting depth (a message's plan may nest in itself): the occurrences' scratch */
  private readonly scratch: WireScratch[] = [];
  /** the position after the last scalar read */
  private next = 0;
  private readonly maxDepth: number;

  constructor(desc: DescMessage, recursionLimit: number) {
    super();
    this.root = this.planOf(desc);
    this.maxDepth = recursionLimit - 2;
  }

  /** The message in bytes[start, end) as compact ProtoJSON text; undefined: not the plain case (the full decoder's). */
  write(bytes: Uint8Array, start: number, end: number): string | undefined {
    this.begin(bytes, start, end);
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
    const fields = compileWirePlan(desc, (base): JsonFieldPlan => {
      const en = base.enumDesc;
      let enumText: Map<number, string> | undefined;
      if (en !== undefined) {
        enumText = new Map();
        // formatProtobufJson's name: the enum's value record by number
        for (const v of en.values) enumText.set(v.number, JSON.stringify(en.value[v.number]!.name));
      }
      return { ...base, key: `${JSON.stringify(getJsonName(base.field))}:`, enumText, closedEnum: en !== undefined && !en.open };
    });
    plan = {
      ...fields,
      order: fields.fields.map((f) => f.index).sort((a, b) => fields.fields[a]!.field.number - fields.fields[b]!.field.number),
      wellKnown: desc.typeName.startsWith('google.protobuf.'),
    };
    this.plans.set(desc, plan);
    return plan;
  }

  private scratchAt(depth: number, fields: number, oneofs: number): WireScratch {
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
    const scratch = this.scratchAt(depth, nFields, plan.oneofs);
    this.scanFields(plan, start, end, depth, scratch);
    const { first, count } = scratch;
    // the first occurrences are taken before any nested message reuses the scratch of a deeper level
    let out = '{';
    let members = 0;
    for (let k = 0; k < nFields; k++) {
      const f = plan.order[k]!;
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
    const child = fp.mapKind === 'message' ? this.planOf(fp.message!) : undefined;
    const keys: string[] = [];
    const values: string[] = [];
    let indexKeys = false;
    for (let o = firstOcc; o >= 0; o = this.occNext[o]!) {
      const stop = this.scanEntry(fp, o, end);
      const keyAt = this.keyAt;
      const valueAt = this.valueAt;
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
}
