/**
 * Java `hashCode()` of the key types Flink jobs commonly key by, in int32 arithmetic:
 * Integer/Short/Byte = value, Long = (int)(v ^ v>>>32), Boolean = 1231/1237, Character = code unit,
 * String = Σ s[i]·31^(n−1−i) over UTF-16 units, Double/Float via their canonical bits,
 * Flink TupleN = 31·h + f_i fold starting with f0 (null → 0).
 */
import type { DecodedValue } from '../snapshots/snapshot-types';

export type JavaKey =
  | { kind: 'int'; value: number }
  | { kind: 'short'; value: number }
  | { kind: 'byte'; value: number }
  | { kind: 'long'; value: bigint }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'char'; value: string | number }
  | { kind: 'double'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'tuple'; fields: (JavaKey | null)[] };

const MAX_TUPLE_DEPTH = 32;

export function computeJavaHashCode(key: JavaKey, depth = 0): number {
  switch (key.kind) {
    case 'int':
    case 'short':
    case 'byte':
      return key.value | 0;
    case 'long':
      return hashLongBits(BigInt.asIntN(64, key.value));
    case 'string':
      return hashString(key.value);
    case 'boolean':
      return key.value ? 1231 : 1237;
    case 'char':
      return typeof key.value === 'number' ? key.value & 0xffff : key.value.charCodeAt(0);
    case 'double': {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, Number.isNaN(key.value) ? NaN : key.value); // doubleToLongBits: canonical NaN
      return hashLongBits(Number.isNaN(key.value) ? 0x7ff8000000000000n : view.getBigInt64(0));
    }
    case 'float': {
      if (Number.isNaN(key.value)) return 0x7fc00000;
      const view = new DataView(new ArrayBuffer(4));
      view.setFloat32(0, key.value);
      return view.getInt32(0);
    }
    case 'tuple': {
      if (depth >= MAX_TUPLE_DEPTH) throw new RangeError(`tuple keys nested deeper than ${MAX_TUPLE_DEPTH}`);
      let h = 0;
      key.fields.forEach((f, i) => {
        const fh = f === null ? 0 : computeJavaHashCode(f, depth + 1);
        h = i === 0 ? fh : (Math.imul(31, h) + fh) | 0;
      });
      return h;
    }
  }
}

function hashLongBits(v: bigint): number {
  const u = BigInt.asUintN(64, v);
  return Number(BigInt.asIntN(32, u ^ (u >> 32n)));
}

function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** The JavaKey of a decoded key value, when its type has a known Java hashCode; undefined otherwise. */
export function convertDecodedValueToJavaKey(v: DecodedValue, depth = 0): JavaKey | undefined {
  if (depth > MAX_TUPLE_DEPTH) return undefined;
  switch (v.kind) {
    case 'int':
      return { kind: v.type === 'Char' ? 'char' : v.type === 'Short' ? 'short' : v.type === 'Byte' ? 'byte' : 'int', value: v.value };
    case 'long':
      return { kind: 'long', value: BigInt(v.value) };
    case 'string':
      return { kind: 'string', value: v.value };
    case 'boolean':
      return { kind: 'boolean', value: v.value };
    case 'float': {
      const n = typeof v.value === 'number' ? v.value : v.value === 'NaN' ? NaN : v.value === 'Infinity' ? Infinity : -Infinity;
      return { kind: v.type === 'Double' ? 'double' : 'float', value: n };
    }
    case 'tuple': {
      const fields: (JavaKey | null)[] = [];
      for (const f of v.fields) {
        if (f.kind === 'null') {
          fields.push(null);
          continue;
        }
        const k = convertDecodedValueToJavaKey(f, depth + 1);
        if (k === undefined) return undefined;
        fields.push(k);
      }
      return { kind: 'tuple', fields };
    }
    default:
      return undefined;
  }
}
