/**
 * Counts the fields, extensions and enum values a binary FileDescriptorSet declares, straight from
 * the wire bytes and before any descriptor object is built, so a set declaring millions of members
 * is refused up front instead of exhausting memory. Stops counting once `stopAbove` is passed.
 * Malformed bytes end the count quietly: the real parser reports them with protobuf-java's text.
 */
import { readVarintAt, varintCursor } from '../io';

const MAX_NESTING = 128;

type Walker = (bytes: Uint8Array, start: number, end: number, depth: number) => void;

export function countDeclaredMembers(bytes: Uint8Array, stopAbove: number): number {
  let count = 0;
  const done = () => count > stopAbove;
  /** Calls `onField(fieldNumber, start, end)` for each length-delimited field of [start, end). */
  const eachLengthDelimited = (start: number, end: number, onField: (n: number, s: number, e: number) => void): void => {
    let p = start;
    const varint = (): number => {
      const v = readVarintAt(bytes, p, end);
      if (v >= 0) p = varintCursor.next;
      return v;
    };
    while (p < end && !done()) {
      const tag = varint();
      if (tag < 0) return;
      switch (tag & 7) {
        case 0:
          if (varint() < 0) return;
          break;
        case 1:
          p += 8;
          break;
        case 5:
          p += 4;
          break;
        case 2: {
          const len = varint();
          if (len < 0 || len > end - p) return;
          onField(Math.floor(tag / 8), p, p + len);
          p += len;
          break;
        }
        default:
          return; // groups do not occur in descriptor.proto
      }
    }
  };
  const walkEnum: Walker = (_b, s, e) => eachLengthDelimited(s, e, (n) => n === 2 && count++);
  const walkMessage: Walker = (b, s, e, depth) => {
    if (depth > MAX_NESTING) return;
    eachLengthDelimited(s, e, (n, fs, fe) => {
      if (n === 2 || n === 6)
        count++; // field, extension
      else if (n === 3)
        walkMessage(b, fs, fe, depth + 1); // nested_type
      else if (n === 4) walkEnum(b, fs, fe, depth); // enum_type
    });
  };
  const walkFile: Walker = (b, s, e) =>
    eachLengthDelimited(s, e, (n, fs, fe) => {
      if (n === 4)
        walkMessage(b, fs, fe, 0); // message_type
      else if (n === 5)
        walkEnum(b, fs, fe, 0); // enum_type
      else if (n === 7) count++; // extension
    });
  eachLengthDelimited(0, bytes.length, (n, fs, fe) => n === 1 && walkFile(bytes, fs, fe, 0));
  return count;
}
