/**
 * Unknown fields (UnknownFieldSet.mergeFieldFrom) and skipped fields (CodedInputStream.skipField)
 * with protobuf-java's rules: groups nest (and count depth when kept), END_GROUP ends the caller.
 */
import { MAX_DECODER_DEPTH } from './protobuf-constants';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from './protobuf-errors';
import type { PbUnknownField } from './protobuf-message-types';
import { toBigInt64, WIRE_END_GROUP, type WireInput } from './wire-input';

/**
 * CodedInputStream.skipField as protobuf-java 4.36.2 does it (map entries skip foreign fields this
 * way). `groupDepth` is the number of skipped groups around the field: each field inside a skipped
 * group is checked against the recursion limit with messageDepth + groupDepth (checkRecursionLimit),
 * and an END_GROUP outside any skipped group fails at once (checkValidEndTag). False for END_GROUP.
 */
export function skipField(input: WireInput, tag: number, groupDepth: number): boolean {
  switch (tag & 7) {
    case 0:
      input.readVarint64();
      return true;
    case 1:
      input.skip(8);
      return true;
    case 2:
      input.skip(input.readLength());
      return true;
    case 3: {
      if (groupDepth >= MAX_DECODER_DEPTH)
        throw new ProtobufParseError(`expected at most ${MAX_DECODER_DEPTH} nested groups in a map entry, found more`, input.tagStart, 'limit-exceeded');
      for (;;) {
        const t = input.readTag();
        if (t === 0) break;
        if (input.depth + groupDepth >= input.recursionLimit) throw new ProtobufParseError(M.recursionLimit, input.tagStart);
        if (!skipField(input, t, groupDepth + 1)) break;
      }
      input.checkLastTagWas(((tag >>> 3) << 3) | WIRE_END_GROUP);
      return true;
    }
    case 4:
      if (groupDepth === 0) input.checkLastTagWas(0);
      return false;
    case 5:
      input.skip(4);
      return true;
    default:
      throw new ProtobufParseError(M.invalidWireType, input.tagStart);
  }
}

/** UnknownFieldSet.mergeFieldFrom: false for END_GROUP. */
export function readUnknownField(input: WireInput, into: PbUnknownField[], no: number, wt: number, start: number): boolean {
  switch (wt) {
    case 0: {
      const lo = input.readVarint64();
      into.push({ number: no, wireType: 0, value: toBigInt64(lo, input.hi, false), range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 1: {
      const lo = input.readFixed64();
      into.push({ number: no, wireType: 1, value: toBigInt64(lo, input.hi, false), range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 2: {
      const value = input.readBytes(input.readLength());
      into.push({ number: no, wireType: 2, value, range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 3: {
      const children: PbUnknownField[] = [];
      input.enter(start);
      for (;;) {
        const tag = input.readTag();
        if (tag === 0 || !readUnknownField(input, children, tag >>> 3, tag & 7, input.tagStart)) break;
      }
      input.checkLastTagWas((no << 3) | WIRE_END_GROUP);
      input.leave();
      into.push({ number: no, wireType: 3, value: children, range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 4:
      return false;
    case 5: {
      const value = input.readFixed32();
      into.push({ number: no, wireType: 5, value, range: { offset: start, length: input.pos - start } });
      return true;
    }
    default:
      throw new ProtobufParseError(M.invalidWireType, start);
  }
}
