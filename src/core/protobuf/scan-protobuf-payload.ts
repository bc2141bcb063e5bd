/**
 * The fast structural scan: size, nesting depth, unknown fields, aliasing statistics and the
 * findings of the value-level warnings, computed straight from the wire bytes with the field table
 * of build-protobuf-scan-index — no message objects, no allocation per field.
 * It follows the full decoder's rules (accepted wire types, depth counting, map entries skipping
 * foreign fields, UTF-8 of proto3 strings); when it meets anything malformed it asks the full
 * decoder (decode-protobuf-payload) for protobuf-java's exact error, so both speeds agree
 * (unknown numbers of closed proto2 enums count as unknown fields, as protobuf-java keeps them).
 */
import { decodeUtf8 } from './decode-utf8';
import { checkPacked, FAIL, readLength, scanClosedEnum, scanCursor, skipField } from './scan-wire-helpers';
import { ALIASING_THRESHOLD_BYTES, MAX_DECODER_DEPTH } from './protobuf-constants';
import { createEmptyScan, explainFailure, type ProtobufFieldLog, type ProtobufPayloadScan, type ProtobufScanOptions } from './protobuf-payload-scan-types';
export type { ProtobufFieldLog, ProtobufPayloadScan, ProtobufScanOptions } from './protobuf-payload-scan-types';
export { createEmptyScan, createProtobufFieldLog } from './protobuf-payload-scan-types';
import {
  SCAN_BYTES,
  SCAN_CHILD_SHIFT,
  SCAN_CLOSED_ENUM,
  SCAN_GROUP,
  SCAN_ONEOF_SHIFT,
  SCAN_REPEATED,
  SCAN_STRING,
  type ProtobufScanIndex,
  type ScanMessageInfo,
} from './build-protobuf-scan-index';

// Local copies: bundlers/transpilers may turn imported bindings into getter calls in the hot loop.
const F_BYTES = SCAN_BYTES;
const F_CLOSED_ENUM = SCAN_CLOSED_ENUM;
const F_CHILD_SHIFT = SCAN_CHILD_SHIFT;
const F_GROUP = SCAN_GROUP;
const F_ONEOF_SHIFT = SCAN_ONEOF_SHIFT;
const F_REPEATED = SCAN_REPEATED;
const F_STRING = SCAN_STRING;
const ALIAS_THRESHOLD = ALIASING_THRESHOLD_BYTES;
const DEPTH_CAP = MAX_DECODER_DEPTH;
const F_ONEOF_MASK = 0xf << SCAN_ONEOF_SHIFT;
/** bit 0 of (f & F_REPEATED) >>> REPEATED_SHIFT: the field is repeated */
const REPEATED_SHIFT = 31 - Math.clz32(SCAN_REPEATED);
/** above every order key (2 · MAX_FIELD_NUMBER + 1 < 2^31) */
const AFTER_UNKNOWN = 0x7fffffff;

const EMPTY = new Uint8Array(0);

export function scanProtobufPayload(bytes: Uint8Array, index: ProtobufScanIndex, options: ProtobufScanOptions): ProtobufPayloadScan {
  const out = createEmptyScan();
  scanProtobufPayloadInto(out, bytes, index, options);
  return out;
}

/**
 * Scans into `out` (overwriting every field) without allocating: the whole-state path. Absent
 * optional results are set to undefined.
 */
export function scanProtobufPayloadInto(out: ProtobufPayloadScan, bytes: Uint8Array, index: ProtobufScanIndex, options: ProtobufScanOptions): void {
  sharedScanner.scanRangeInto(out, bytes, 0, bytes.length, index, options);
}

/**
 * scanProtobufPayloadInto of the payload bytes[start, end) (the bytes present; options.frameLength,
 * default end − start, is the declared length), without a view of them: a scan straight from a read
 * buffer. Error offsets are relative to `start`, as for the payload alone.
 */
export function scanProtobufPayloadRangeInto(
  out: ProtobufPayloadScan,
  bytes: Uint8Array,
  start: number,
  end: number,
  index: ProtobufScanIndex,
  options: ProtobufScanOptions,
): void {
  sharedScanner.scanRangeInto(out, bytes, start, end, index, options);
}

/**
 * The structural scan's state: the payload's bytes and field table, and what one scan counts (reset by
 * every scan, so the hot loop allocates nothing). A scan runs to its end synchronously, so one scanner
 * serves any number of callers one scan after another (the functions above share one); a caller that
 * scans many payloads (a state's scan) keeps its own, with its own view of its read buffer.
 */
export class ProtobufPayloadScanner {
  private buf: Uint8Array = EMPTY;
  private messages: ScanMessageInfo[] = [];
  private recursionLimit = 0;
  private maxDepth = 0;
  private unknownFields = 0;
  private unknownBytes = 0;
  private aliasableFields = 0;
  private aliasableBytes = 0;
  private reused = 0;
  private reuseExample: { typeName: string; number: number } | undefined = undefined;
  private tooLarge = 0;
  private tooLargeExample: string | undefined = undefined;
  private log: ProtobufFieldLog | undefined = undefined;
  /**
   * A DataView of buf for word reads (strings, packed numbers), made when first needed. It is kept for
   * the following scans of the same buffer (a read buffer holds many values) until the current job
   * ends, so no buffer stays alive through it.
   */
  private view: DataView | undefined = undefined;
  private viewBytes: Uint8Array = EMPTY;
  private viewDropPending = false;
  private readonly dropView = (): void => {
    this.view = undefined;
    this.viewBytes = EMPTY;
    this.viewDropPending = false;
  };

  private openView(): DataView {
    const buf = this.buf;
    const view = (this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength));
    this.viewBytes = buf;
    if (!this.viewDropPending) {
      this.viewDropPending = true;
      void Promise.resolve().then(this.dropView);
    }
    return view;
  }

  /** scanProtobufPayloadRangeInto with this scanner. */
  scanRangeInto(out: ProtobufPayloadScan, bytes: Uint8Array, start: number, end: number, index: ProtobufScanIndex, options: ProtobufScanOptions): void {
    if (!(start >= 0 && start <= end && end <= bytes.length))
      throw new RangeError(`expected a range within the ${bytes.length} bytes, found [${start}, ${end})`);
    const frameLength = options.frameLength ?? end - start;
    if (this.viewBytes !== bytes) this.view = undefined;
    this.buf = bytes;
    this.messages = index.messages;
    this.recursionLimit = options.recursionLimit < DEPTH_CAP ? options.recursionLimit : DEPTH_CAP;
    this.maxDepth = this.unknownFields = this.unknownBytes = this.aliasableFields = this.aliasableBytes = this.reused = this.tooLarge = 0;
    this.reuseExample = undefined;
    this.tooLargeExample = undefined;
    const log = (this.log = options.fieldLog);
    if (log !== undefined) {
      log.unknown.length = 0;
      log.known.length = 0;
      log.needsFullDecode = false;
    }
    const ok =
      end - start >= frameLength &&
      frameLength <= options.maxMessageSize &&
      this.scanMessage(start, start + frameLength, index.root, 0, -1) === start + frameLength;
    // a malformed payload may have been read past `end` (the scan fails on any such read, but what it
    // counted before failing could depend on the bytes there): scan it alone, as a view, for results
    // that are the payload's own
    if (!ok && (start !== 0 || end !== bytes.length)) return this.scanRangeInto(out, bytes.subarray(start, end), 0, end - start, index, options);
    const large = frameLength > ALIAS_THRESHOLD;
    const aliased = large && this.aliasableFields > 0;
    out.payloadSize = frameLength;
    out.depth = this.maxDepth;
    out.unknownFields = this.unknownFields;
    out.unknownBytes = this.unknownBytes;
    out.aliasableFields = this.aliasableFields;
    out.aliasableBytes = this.aliasableBytes;
    out.large = large;
    out.aliased = aliased;
    out.keptAliveBytes = aliased ? frameLength : 0;
    out.extraWireBytes = aliased ? frameLength - this.aliasableBytes : 0;
    out.reusedDeclaredNumbers = this.reused;
    out.reuseExample = this.reuseExample;
    out.numbersTooLarge = this.tooLarge;
    out.tooLargeExample = this.tooLargeExample;
    this.buf = EMPTY;
    this.log = undefined;
    out.error = ok ? undefined : explainFailure(bytes, options, frameLength);
  }

  /** Scans fields in [pos, end); for a group, up to and including its END_GROUP. Returns the end position or FAIL. */
  private scanMessage(pos: number, end: number, m: number, depth: number, groupNo: number): number {
    if (depth > this.maxDepth) this.maxDepth = depth;
    const bytes = this.buf;
    const log = this.log;
    const recursionLimit = this.recursionLimit;
    const info = m >= 0 ? this.messages[m] : undefined;
    const mapEntry = info !== undefined && info.mapEntry;
    // the field-order check of the value warnings in one number: 2·no after a repeated field (the
    // same number may follow), 2·no + 1 after any other, and AFTER_UNKNOWN once an unknown field was
    // seen (every known field after it is out of writer order); a known field is in order when 2·no + 1 > lastKey
    let lastKey = 0;
    let oneofsSeen = 0;
    // where the known fields are listed (rarely): every known field takes the slow path
    const slow = log !== undefined ? F_ONEOF_MASK : 0;
    while (pos < end) {
      // tag: protobuf-java keeps the low 32 bits of up to 10 bytes
      const tagStart = pos;
      let b = bytes[pos++]!;
      let tag = b & 0x7f;
      if (b & 0x80) {
        b = bytes[pos++]!;
        tag |= (b & 0x7f) << 7;
        if (b & 0x80) {
          b = bytes[pos++]!;
          tag |= (b & 0x7f) << 14;
          if (b & 0x80) {
            b = bytes[pos++]!;
            tag |= (b & 0x7f) << 21;
            if (b & 0x80) {
              b = bytes[pos++]!;
              tag |= (b & 0x7f) << 28;
              let over = (b & 0x70) !== 0;
              let n = 5;
              while (b & 0x80) {
                if (n++ >= 10) return FAIL;
                b = bytes[pos++]!;
                if ((b & 0x7f) !== 0) over = true;
              }
              if (over) this.noteTooLarge(tagStart, pos);
            }
          }
        }
        if (pos > end) return FAIL;
      }
      const no = tag >>> 3;
      const wt = tag & 7;
      if (no === 0) return FAIL;
      if (wt === 4) return groupNo === no ? pos : FAIL;
      const f = info === undefined ? 0 : no < info.small.length ? info.small[no]! : (info.large.get(no) ?? 0);
      // bits 0-6 hold the accepted wire types (bit 7 flags closed enums, and wire type 7 is never accepted)
      if ((f & 0x7f & (1 << wt)) !== 0) {
        if ((f & F_CLOSED_ENUM) !== 0) {
          // protobuf-java keeps unknown numbers of closed enums as unknown varint fields
          if (log !== undefined) log.needsFullDecode = true;
          pos = scanClosedEnum(bytes, pos, end, wt, info!.closedEnums.get(no)!);
          if (pos === FAIL) return FAIL;
          if (scanCursor.closedUnknown > 0) {
            this.unknownFields += scanCursor.closedUnknown;
            lastKey = AFTER_UNKNOWN;
          } else if (lastKey !== AFTER_UNKNOWN) lastKey = 2 * no + 1 - ((f & F_REPEATED) >>> REPEATED_SHIFT);
          continue;
        }
        if (!mapEntry) {
          // in writer order and in no oneof: the fast path
          const key = 2 * no + 1;
          if (((f | slow) & F_ONEOF_MASK) === 0 && key > lastKey) lastKey = key - ((f & F_REPEATED) >>> REPEATED_SHIFT);
          else {
            // a second member of one oneof is as impossible for protobuf-java's writer as a late declared field
            const oneofBit = 1 << ((f >>> F_ONEOF_SHIFT) & 0xf);
            if (key <= lastKey || (oneofBit > 1 && (oneofsSeen & oneofBit) !== 0)) {
              this.reused++;
              if (this.reuseExample === undefined) this.reuseExample = { typeName: info!.typeName, number: no };
            }
            oneofsSeen |= oneofBit;
            if (lastKey !== AFTER_UNKNOWN) lastKey = key - ((f & F_REPEATED) >>> REPEATED_SHIFT);
            if (log !== undefined) log.known.push(m, no);
          }
        }
        const child = f >>> F_CHILD_SHIFT;
        if (wt === 0) {
          const s = pos;
          while (bytes[pos++]! & 0x80) if (pos - s >= 10) return FAIL;
        } else if (wt === 2) {
          let len = bytes[pos]!;
          if (len < 0x80) pos++;
          else {
            len = readLength(bytes, pos);
            if (len < 0) return FAIL;
            pos = scanCursor.lengthEnd;
          }
          const valueEnd = pos + len;
          if (valueEnd > end) return FAIL;
          if (child !== 0 && (f & F_GROUP) === 0) {
            if (depth + 1 > recursionLimit) return FAIL;
            if (this.scanMessage(pos, valueEnd, child - 1, depth + 1, -1) !== valueEnd) return FAIL;
          } else if ((f & F_BYTES) !== 0) {
            if (len > 0) {
              this.aliasableFields++;
              this.aliasableBytes += len;
            }
          } else if ((f & 0x7f) !== 1 << 2) {
            // packed repeated numbers: every element must end inside the value
            if (!checkPacked(bytes, this.view !== undefined ? this.view : this.openView(), pos, valueEnd, f)) return FAIL;
          } else if ((f & F_STRING) !== 0) {
            // ASCII needs no UTF-8 check: OR the string's bytes together four at a time (the last four
            // overlapping), and validate only when a high bit is set
            let acc = 0;
            if (len >= 4) {
              const dv = this.view !== undefined ? this.view : this.openView();
              for (let i = pos, last4 = valueEnd - 4; i < last4; i += 4) acc |= dv.getInt32(i, true);
              acc |= dv.getInt32(valueEnd - 4, true);
            } else for (let i = pos; i < valueEnd; i++) acc |= bytes[i]!;
            if ((acc & 0x80808080) !== 0 && decodeUtf8(bytes, pos, valueEnd, true) === undefined) return FAIL;
          }
          pos = valueEnd;
        } else if (wt === 1) pos += 8;
        else if (wt === 5) pos += 4;
        else {
          if (depth + 1 > recursionLimit) return FAIL;
          pos = this.scanMessage(pos, end, child - 1, depth + 1, no);
          if (pos === FAIL) return FAIL;
        }
        if (pos > end) return FAIL;
        continue;
      }
      if (mapEntry) {
        pos = skipField(bytes, pos, end, wt, no, 0, depth, recursionLimit);
        if (pos === FAIL) return FAIL;
        continue;
      }
      // unknown field: undeclared number, or a wire type the declared field does not accept
      lastKey = AFTER_UNKNOWN;
      this.unknownFields++;
      if (log !== undefined && m >= 0) log.unknown.push(m, no, wt);
      if (wt === 0) {
        const s = pos;
        while (bytes[pos++]! & 0x80) if (pos - s >= 10) return FAIL;
      } else if (wt === 2) {
        const len = readLength(bytes, pos);
        if (len < 0) return FAIL;
        pos = scanCursor.lengthEnd + len;
        if (len > 0) {
          this.aliasableFields++;
          this.aliasableBytes += len;
        }
      } else if (wt === 1) pos += 8;
      else if (wt === 5) pos += 4;
      else if (wt === 3) {
        if (depth + 1 > recursionLimit) return FAIL;
        pos = this.scanMessage(pos, end, -1, depth + 1, no);
        if (pos === FAIL) return FAIL;
      } else return FAIL;
      if (pos > end) return FAIL;
      this.unknownBytes += pos - tagStart;
    }
    if (pos !== end || groupNo >= 0) return FAIL;
    return pos;
  }

  /** A tag varint above 32 bits: its field number exceeds MAX_FIELD_NUMBER. */
  private noteTooLarge(tagStart: number, tagEnd: number): void {
    this.tooLarge++;
    if (this.tooLargeExample !== undefined) return;
    let v = 0n;
    for (let i = tagEnd - 1; i >= tagStart; i--) v = (v << 7n) | BigInt(this.buf[i]! & 0x7f);
    this.tooLargeExample = String(v >> 3n);
  }
}

const sharedScanner = new ProtobufPayloadScanner();
