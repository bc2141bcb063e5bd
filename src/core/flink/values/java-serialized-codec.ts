import { decodeModifiedUtf8, type ByteReader, formatHex } from '../../io';
import type { DecodedValue, ValueCodec } from './value-types';
import { encodeBase64 } from './encode-base64';

const STREAM_MAGIC = [0xac, 0xed, 0x00, 0x05];
const TC_STRING = 0x74;
const TC_LONGSTRING = 0x7c;

/**
 * JavaSerializer values: a complete Java serialization stream with no length prefix.
 * A stream holding a single String (`AC ED 00 05 74 <u16> <modified UTF-8>`, or TC_LONGSTRING) is
 * decoded to its text and consumes exactly its bytes; any other object cannot be delimited
 * without a full Java-serialization parser, so it takes ALL bytes left in the reader: callers
 * must hand it a reader bounded to one value (operator-state offsets, length-prefixed entries).
 */
export const javaSerializedCodec: ValueCodec = {
  decode(r: ByteReader): DecodedValue {
    const start = r.position;
    const text = tryReadJavaString(r);
    if (text === undefined) {
      r.seek(start);
      const rest = r.readBytes(r.remaining, 'Java-serialized value');
      if (rest.length < 4 || STREAM_MAGIC.some((b, i) => rest[i] !== b)) {
        throw r.error('invalid-value', `expected a Java serialization stream (AC ED 00 05), found ${hexPrefix(rest)}`, start);
      }
      return { kind: 'java-serialized', length: rest.length, base64: encodeBase64(rest) };
    }
    const bytes = r.bytes.subarray(start, r.position);
    return { kind: 'java-serialized', length: bytes.length, text, base64: encodeBase64(bytes) };
  },
};

function tryReadJavaString(r: ByteReader): string | undefined {
  if (r.remaining < 7) return undefined;
  for (let i = 0; i < 4; i++) if (r.peekU8(i) !== STREAM_MAGIC[i]) return undefined;
  const tc = r.peekU8(4);
  let len: number;
  let headerLen: number;
  if (tc === TC_STRING) {
    len = (r.peekU8(5)! << 8) | r.peekU8(6)!;
    headerLen = 7;
  } else if (tc === TC_LONGSTRING && r.remaining >= 13) {
    let v = 0;
    for (let i = 5; i < 13; i++) v = v * 256 + r.peekU8(i)!;
    len = v;
    headerLen = 13;
  } else {
    return undefined;
  }
  if (len > r.remaining - headerLen) return undefined;
  const from = r.position + headerLen;
  const decoded = decodeModifiedUtf8(r.bytes, from, from + len);
  if ('error' in decoded) return undefined;
  r.skip(headerLen + len, 'Java-serialized String');
  return decoded.value;
}

function hexPrefix(b: Uint8Array): string {
  const shown = formatHex(b.subarray(0, 8), ' ');
  return b.length === 0 ? 'no bytes' : `${shown}${b.length > 8 ? ' …' : ''}`;
}
