import { type ByteReader, readVarintAt, varintCursor } from '../../io';
import type { DecodedValue, ValueCodec } from './value-types';
import { bigIntFromTwosComplement } from './big-int-from-twos-complement';

/** StringSerializer: Flink StringValue.writeString, null allowed. */
export const stringCodec: ValueCodec = {
  decode(r) {
    const s = r.readStringValue('String value');
    return s === null ? { kind: 'null' } : { kind: 'string', value: s };
  },
  skip: skipStringValue,
};

/**
 * ByteReader.readStringValue without building the string: the end of the string at `pos`, or -1
 * wherever readStringValue would throw (a varint above 5 bytes or cut off, fewer bytes than
 * characters, a unit above 0xFFFF).
 */
export function skipStringValue(bytes: Uint8Array, pos: number, end: number): number {
  const len = readVarintAt(bytes, pos, end, 5);
  if (len < 0) return -1;
  pos = varintCursor.next;
  if (len === 0) return pos;
  const n = len - 1;
  if (n > end - pos) return -1;
  for (let i = 0; i < n; i++) {
    if (pos < end && bytes[pos]! < 0x80) pos++;
    else {
      const c = readVarintAt(bytes, pos, end, 5);
      if (c < 0 || c > 0xffff) return -1;
      pos = varintCursor.next;
    }
  }
  return pos;
}

/**
 * StringValueSerializer: StringValue.write — the length varint is the plain length (no +1, no
 * null), then each UTF-16 unit as a varint.
 */
export const stringValueCodec: ValueCodec = {
  decode(r) {
    const len = r.readStringValueVarint('length of StringValue');
    if (len > r.remaining) throw r.error('truncated', `expected ${len} characters of StringValue, found only ${r.remaining} bytes`);
    const units: number[] = [];
    for (let i = 0; i < len; i++) units.push(r.readStringValueVarint('character of StringValue'));
    let out = '';
    for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
    return { kind: 'string', value: out };
  },
};

/** BigIntSerializer tag: 0 null, 1 ZERO, 2 ONE, 3 TEN, else t − 4 magnitude bytes. */
function readBigInteger(r: ByteReader, what: string): bigint | null {
  const at = r.position;
  const tag = r.readI32(`${what} length tag`);
  if (tag === 0) return null;
  if (tag === 1) return 0n;
  if (tag === 2) return 1n;
  if (tag === 3) return 10n;
  if (tag < 0) throw r.error('invalid-value', `expected a BigInteger length tag ≥ 0, found ${tag}`, at);
  return bigIntFromTwosComplement(r.readBytes(tag - 4, `${what} magnitude`));
}

export const bigIntCodec: ValueCodec = {
  decode(r): DecodedValue {
    const v = readBigInteger(r, 'BigInteger');
    return v === null ? { kind: 'null' } : { kind: 'other', type: 'BigInteger', text: v.toString() };
  },
};

export const bigDecCodec: ValueCodec = {
  decode(r): DecodedValue {
    const unscaled = readBigInteger(r, 'BigDecimal unscaled value');
    if (unscaled === null) return { kind: 'null' };
    const scale = r.readI32('BigDecimal scale');
    return { kind: 'other', type: 'BigDecimal', text: formatBigDecimal(unscaled, scale) };
  },
};

/** Plain (non-scientific) text of unscaled × 10^-scale. */
export function formatBigDecimal(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale <= 0) return (neg ? '-' : '') + digits + '0'.repeat(-scale);
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  return `${neg ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}
