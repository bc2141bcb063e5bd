import type { ByteReader } from '../../io';
import type { DecodedValue, ValueCodec } from './value-types';

/** Value codecs of the fixed-size primitive serializers. */

/** ValueCodec.skip of a codec that reads `n` bytes and accepts any of them. */
export function skipFixed(n: number): (bytes: Uint8Array, pos: number, end: number) => number {
  return (_bytes, pos, end) => (end - pos >= n ? pos + n : -1);
}

function floatValue(type: 'Float' | 'Double', v: number): DecodedValue {
  if (Number.isNaN(v)) return { kind: 'float', type, value: 'NaN' };
  if (v === Infinity) return { kind: 'float', type, value: 'Infinity' };
  if (v === -Infinity) return { kind: 'float', type, value: '-Infinity' };
  return { kind: 'float', type, value: v };
}

export const intCodec: ValueCodec = { decode: (r: ByteReader) => ({ kind: 'int', type: 'Int', value: r.readI32('Int value') }), skip: skipFixed(4) };
export const shortCodec: ValueCodec = { decode: (r) => ({ kind: 'int', type: 'Short', value: r.readI16('Short value') }), skip: skipFixed(2) };
export const byteCodec: ValueCodec = { decode: (r) => ({ kind: 'int', type: 'Byte', value: r.readI8('Byte value') }), skip: skipFixed(1) };
export const charCodec: ValueCodec = { decode: (r) => ({ kind: 'int', type: 'Char', value: r.readU16('Char value') }), skip: skipFixed(2) };
export const longCodec: ValueCodec = { decode: (r) => ({ kind: 'long', value: r.readI64('Long value').toString() }), skip: skipFixed(8) };
export const booleanCodec: ValueCodec = { decode: (r) => ({ kind: 'boolean', value: r.readBool('Boolean value') }), skip: skipFixed(1) };
export const floatCodec: ValueCodec = { decode: (r) => floatValue('Float', r.readF32('Float value')), skip: skipFixed(4) };
export const doubleCodec: ValueCodec = { decode: (r) => floatValue('Double', r.readF64('Double value')), skip: skipFixed(8) };
/** VoidSerializer writes one byte for the Void value null. */
export const voidCodec: ValueCodec = {
  decode: (r) => {
    r.readU8('Void value');
    return { kind: 'null' };
  },
  skip: skipFixed(1),
};
/** NullValueSerializer writes nothing. */
export const nullValueCodec: ValueCodec = { decode: () => ({ kind: 'null' }) };
