/** Reads one scalar value as protobuf-java does (varint widths, zigzag, little-endian fixed, UTF-8 check). */
import { ScalarType } from '@bufbuild/protobuf';
import { decodeUtf8 } from './decode-utf8';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from './protobuf-errors';
import type { PbScalar } from './protobuf-message-types';
import { toBigInt64, type WireInput } from './wire-input';

const scratch = new DataView(new ArrayBuffer(8));

export function readScalar(input: WireInput, type: ScalarType, validateUtf8: boolean): PbScalar {
  switch (type) {
    case ScalarType.INT32:
      return input.readVarint32();
    case ScalarType.UINT32:
      return input.readVarint32() >>> 0;
    case ScalarType.SINT32: {
      const n = input.readVarint32();
      return (n >>> 1) ^ -(n & 1);
    }
    case ScalarType.INT64:
      return toBigInt64(input.readVarint64(), input.hi, true);
    case ScalarType.UINT64:
      return toBigInt64(input.readVarint64(), input.hi, false);
    case ScalarType.SINT64: {
      const u = toBigInt64(input.readVarint64(), input.hi, false);
      return (u >> 1n) ^ -(u & 1n);
    }
    case ScalarType.BOOL: {
      const lo = input.readVarint64();
      return lo !== 0 || input.hi !== 0;
    }
    case ScalarType.FIXED32:
      return input.readFixed32();
    case ScalarType.SFIXED32:
      return input.readFixed32() | 0;
    case ScalarType.FLOAT:
      scratch.setUint32(0, input.readFixed32());
      return scratch.getFloat32(0);
    case ScalarType.FIXED64:
      return toBigInt64(input.readFixed64(), input.hi, false);
    case ScalarType.SFIXED64:
      return toBigInt64(input.readFixed64(), input.hi, true);
    case ScalarType.DOUBLE: {
      const lo = input.readFixed64();
      scratch.setUint32(0, input.hi);
      scratch.setUint32(4, lo);
      return scratch.getFloat64(0);
    }
    case ScalarType.STRING: {
      const at = input.pos;
      const bytes = input.readBytes(input.readLength());
      if (validateUtf8 && decodeUtf8(bytes) === undefined) throw new ProtobufParseError(M.invalidUtf8, at);
      return bytes;
    }
    case ScalarType.BYTES:
      return input.readBytes(input.readLength());
  }
}

export function getScalarDefault(type: ScalarType): PbScalar {
  switch (type) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    case ScalarType.BOOL:
      return false;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return new Uint8Array(0);
    default:
      return 0;
  }
}

export function formatMapKey(key: PbScalar): string {
  if (key instanceof Uint8Array) return decodeUtf8(key, 0, key.length, false)!;
  return String(key);
}
