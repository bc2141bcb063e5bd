/**
 * The scalar texts of the text exports' wire path (write-protobuf-wire-json.ts): 64-bit integers from their
 * two words, numbers and strings as ProtoJSON writes them, a map's missing key or value, and the value
 * that sends a payload back to the full decoder.
 */
import { ScalarType } from '@bufbuild/protobuf';
import { decodeUtf8 } from '../protobuf';

import { WIRE_FALLBACK as FALLBACK } from './walk-protobuf-wire';

/** Thrown inside, caught at the root: the value goes to the full decoder (the wire paths' one). */
export { FALLBACK };

const SCRATCH = new ArrayBuffer(8);
const SCRATCH_U32 = new Uint32Array(SCRATCH);
const SCRATCH_F32 = new Float32Array(SCRATCH);
const SCRATCH_F64 = new Float64Array(SCRATCH);
export const TWO_32 = 4294967296;
/** |high word| below this: the value is a safe integer */
export const SAFE_HIGH = 1 << 21;

/** a 64-bit integer's decimal digits from its two words (signed: two's complement) */
export function int64Text(lo: number, hi: number, signed: boolean): string {
  if (signed) {
    const h = hi | 0;
    if (h >= -SAFE_HIGH && h < SAFE_HIGH) return String(h * TWO_32 + (lo >>> 0));
    return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)).toString();
  }
  const h = hi >>> 0;
  if (h < SAFE_HIGH) return String(h * TWO_32 + (lo >>> 0));
  return ((BigInt(h) << 32n) | BigInt(lo >>> 0)).toString();
}

/** formatScalar's number: NaN and the infinities as strings, else JSON's number */
export function numberJson(v: number): string {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Number.POSITIVE_INFINITY) return '"Infinity"';
  if (v === Number.NEGATIVE_INFINITY) return '"-Infinity"';
  return JSON.stringify(v);
}

/** a proto string's JSON text: plain ASCII (nothing to escape) read as it lies, anything else decoded (not valid UTF-8: the full decoder's case) */
export function stringJson(b: Uint8Array, p: number, stop: number): string {
  let plain = true;
  for (let i = p; i < stop; i++) {
    const c = b[i]!;
    if (c >= 0x80 || c < 0x20 || c === 0x22 || c === 0x5c) {
      plain = false;
      break;
    }
  }
  if (plain) return `"${stop - p > 64 ? ASCII.decode(b.subarray(p, stop)) : String.fromCharCode.apply(null, b.subarray(p, stop) as unknown as number[])}"`;
  const text = decodeUtf8(b, p, stop, true);
  if (text === undefined) throw FALLBACK;
  return JSON.stringify(text);
}

export const ASCII = new TextDecoder();

/** a map's missing key as its member name */
export function scalarDefaultKey(scalar: ScalarType): string {
  return scalar === ScalarType.STRING ? '' : scalar === ScalarType.BOOL ? 'false' : '0';
}

/** a map's missing scalar value: the type's default, as JSON */
export function scalarDefaultJson(scalar: ScalarType): string {
  switch (scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return '""';
    case ScalarType.BOOL:
      return 'false';
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return '"0"';
    default:
      return '0';
  }
}

/** A canonical array index (0 … 2³² − 2): JavaScript orders such keys first. */
export function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 4294967294;
}

/** a float's JSON from its 32 bits (little-endian word) */
export function float32Json(bits: number): string {
  SCRATCH_U32[0] = bits;
  return numberJson(SCRATCH_F32[0]!);
}

/** a double's JSON from its two 32-bit words */
export function float64Json(lo: number, hi: number): string {
  SCRATCH_U32[0] = lo;
  SCRATCH_U32[1] = hi;
  return numberJson(SCRATCH_F64[0]!);
}
