import type { ByteReader } from '../../io';
import type { DecodedValue, ValueCodec } from './value-types';
import { encodeBase64 } from './encode-base64';
import { booleanCodec, charCodec, doubleCodec, floatCodec, intCodec, longCodec, shortCodec } from './primitive-codecs';

/** Primitive array serializers: `i32` length, then the elements (no null flags). */
function primitiveArrayCodec(element: ValueCodec, bytesPerElement: number, what: string): ValueCodec {
  return {
    decode(r: ByteReader): DecodedValue {
      const n = r.readCount(`${what} elements`, bytesPerElement);
      const items: DecodedValue[] = [];
      for (let i = 0; i < n; i++) items.push(element.decode(r));
      return { kind: 'list', items };
    },
  };
}

export const bytePrimitiveArrayCodec: ValueCodec = {
  decode(r) {
    const n = r.readCount('byte[] bytes', 1);
    const bytes = r.readBytes(n, 'byte[] bytes');
    return { kind: 'bytes', length: n, base64: encodeBase64(bytes) };
  },
};
export const intPrimitiveArrayCodec = primitiveArrayCodec(intCodec, 4, 'int[]');
export const longPrimitiveArrayCodec = primitiveArrayCodec(longCodec, 8, 'long[]');
export const shortPrimitiveArrayCodec = primitiveArrayCodec(shortCodec, 2, 'short[]');
export const charPrimitiveArrayCodec = primitiveArrayCodec(charCodec, 2, 'char[]');
export const floatPrimitiveArrayCodec = primitiveArrayCodec(floatCodec, 4, 'float[]');
export const doublePrimitiveArrayCodec = primitiveArrayCodec(doubleCodec, 8, 'double[]');
export const booleanPrimitiveArrayCodec = primitiveArrayCodec(booleanCodec, 1, 'boolean[]');

/** StringArraySerializer: `i32` length, then each element with StringValue.writeString (null allowed). */
export const stringArrayCodec: ValueCodec = {
  decode(r) {
    const n = r.readCount('String[] elements', 1);
    const items: DecodedValue[] = [];
    for (let i = 0; i < n; i++) {
      const s = r.readStringValue(`String[] element ${i}`);
      items.push(s === null ? { kind: 'null' } : { kind: 'string', value: s });
    }
    return { kind: 'list', items };
  },
};
