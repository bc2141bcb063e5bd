/**
 * Whole-state statistics from the structural scan: sizes, depth, unknown fields, the
 * large-payload aliasing memory model with aliasing on and off (below), and the value-level checks
 * that need only the saved data, each counted per state with example keys.
 *
 * Memory model, per value whose payload exceeds 4 KiB and holds aliasable fields (non-empty bytes
 * fields, unknown length-delimited fields):
 * - aliasing on: those values share the payload array, so one retained value keeps all
 *   `payloadSize` bytes alive (`retainedArrayBytes`); when the message itself is retained, the
 *   array also holds the wire form of its other content besides the decoded form
 *   (`extraWireBytes` = payloadSize − aliasable bytes). Smaller payloads never share storage.
 * - aliasing off: every bytes value is copied (`copiedBytes` = its length), no array is retained.
 *
 * The value checks report facts only: which check, how many values, example keys, and what the first
 * example showed, in numbers. The compat module names the rule each check stands for and words it.
 */
import { ALIASING_THRESHOLD_BYTES } from './protobuf-constants';
import type { ProtobufScanIndex } from './build-protobuf-scan-index';
import { createEmptyScan, ProtobufPayloadScanner, type ProtobufPayloadScan, type ProtobufScanOptions } from './scan-protobuf-payload';

/**
 * The checks made on each value with the saved schema alone: a large payload whose array aliasable
 * fields would share, a declared field written where only an unknown field reusing its number is, a
 * field number above 536,870,911, a payload over the new limits (when given).
 */
export type ProtobufValueCheck = 'aliased-payload' | 'reused-number' | 'number-too-large' | 'exceeds-new-limit';

/** What the first value a check flagged showed. */
export type ProtobufValueExample =
  | { kind: 'aliased-payload'; payloadSize: number; aliasableFields: number; aliasableBytes: number }
  /** field `number` of message `typeName` is written after unknown fields or out of field-number order */
  | { kind: 'reused-number'; number: number; typeName: string }
  /** the number as decimal text (it may exceed 2^53) */
  | { kind: 'number-too-large'; number: string }
  /** `value` is the new limit */
  | { kind: 'payload-too-large'; payloadSize: number; value: number }
  | { kind: 'too-deep'; depth: number; value: number };

export interface ProtobufValueFinding {
  check: ProtobufValueCheck;
  /** number of values with the finding */
  count: number;
  exampleKeys: string[];
  /** what the first example shows */
  example: ProtobufValueExample;
}

export interface AliasingMemory {
  retainedArrayBytes: number;
  copiedBytes: number;
  extraWireBytes: number;
}

export interface ProtobufStateScanSummary {
  values: number;
  unreadableValues: number;
  errors: { key: string; message: string; offset: number }[];
  totalPayloadBytes: number;
  maxPayloadSize: number;
  maxDepth: number;
  valuesWithUnknownFields: number;
  unknownFields: number;
  unknownBytes: number;
  largeValues: number;
  aliasedValues: number;
  aliasableFields: number;
  aliasableBytes: number;
  aliasing: { on: AliasingMemory; off: AliasingMemory; thresholdBytes: number };
  findings: ProtobufValueFinding[];
}

export interface ProtobufStateScanOptions extends ProtobufScanOptions {
  /** the new application's limits, for the exceeds-new-limit check */
  newLimits?: { maxMessageSize: number; recursionLimit: number };
  maxExamples?: number;
}

export interface ProtobufStateScan {
  /**
   * Scans one payload (frame without its 4-byte length) and adds it. The returned scan is this
   * state scan's scratch object: read it before the next call. `key` names the entry in examples;
   * give a function to build the text only when an example is kept.
   */
  addPayload(payload: Uint8Array, key: EntryKeyText, frameLength?: number): ProtobufPayloadScan;
  /** addPayload of the payload bytes[start, end), scanned in place (scanProtobufPayloadRangeInto). */
  addPayloadRange(bytes: Uint8Array, start: number, end: number, key: EntryKeyText, frameLength?: number): ProtobufPayloadScan;
  /** Adds an already computed scan. */
  addScan(scan: ProtobufPayloadScan, key: EntryKeyText): void;
  finish(): ProtobufStateScanSummary;
}

/** An entry's key as text, or a function that makes it (called at most once per value, only when needed). */
export type EntryKeyText = string | (() => string);

export function createProtobufStateScan(index: ProtobufScanIndex, options: ProtobufStateScanOptions): ProtobufStateScan {
  const maxExamples = options.maxExamples ?? 5;
  const s: ProtobufStateScanSummary = {
    values: 0,
    unreadableValues: 0,
    errors: [],
    totalPayloadBytes: 0,
    maxPayloadSize: 0,
    maxDepth: 0,
    valuesWithUnknownFields: 0,
    unknownFields: 0,
    unknownBytes: 0,
    largeValues: 0,
    aliasedValues: 0,
    aliasableFields: 0,
    aliasableBytes: 0,
    aliasing: {
      on: { retainedArrayBytes: 0, copiedBytes: 0, extraWireBytes: 0 },
      off: { retainedArrayBytes: 0, copiedBytes: 0, extraWireBytes: 0 },
      thresholdBytes: ALIASING_THRESHOLD_BYTES,
    },
    findings: [],
  };
  const findings = new Map<ProtobufValueCheck, ProtobufValueFinding>();
  const scratch = createEmptyScan();
  // the state's own scanner (its view of the read buffer kept across the state's values)
  const scanner = new ProtobufPayloadScanner();
  const scanOptions: ProtobufScanOptions = { ...options };
  let keyOf: EntryKeyText = '';
  let keyText: string | undefined;
  const currentKey = (): string => (keyText ??= typeof keyOf === 'string' ? keyOf : keyOf());
  const note = (check: ProtobufValueCheck, example: () => ProtobufValueExample): void => {
    let f = findings.get(check);
    if (f === undefined) {
      f = { check, count: 0, exampleKeys: [], example: example() };
      findings.set(check, f);
    }
    f.count++;
    if (f.exampleKeys.length < maxExamples) f.exampleKeys.push(currentKey());
  };
  const addPayloadRange = (bytes: Uint8Array, start: number, end: number, key: EntryKeyText, frameLength?: number): ProtobufPayloadScan => {
    // one scratch result and one options object for the whole state: no allocation per value
    scanOptions.frameLength = frameLength ?? options.frameLength ?? end - start;
    scanner.scanRangeInto(scratch, bytes, start, end, index, scanOptions);
    addScan(scratch, key);
    return scratch;
  };
  const addScan = (v: ProtobufPayloadScan, key: EntryKeyText): void => {
    keyOf = key;
    keyText = undefined;
    s.values++;
    s.totalPayloadBytes += v.payloadSize;
    s.maxPayloadSize = Math.max(s.maxPayloadSize, v.payloadSize);
    s.maxDepth = Math.max(s.maxDepth, v.depth);
    if (v.error !== undefined) {
      s.unreadableValues++;
      if (s.errors.length < maxExamples) s.errors.push({ key: currentKey(), ...v.error });
      return;
    }
    if (v.unknownFields > 0) s.valuesWithUnknownFields++;
    s.unknownFields += v.unknownFields;
    s.unknownBytes += v.unknownBytes;
    s.aliasableFields += v.aliasableFields;
    s.aliasableBytes += v.aliasableBytes;
    s.aliasing.off.copiedBytes += v.aliasableBytes;
    if (v.large) s.largeValues++;
    if (v.aliased) {
      s.aliasedValues++;
      s.aliasing.on.retainedArrayBytes += v.keptAliveBytes;
      s.aliasing.on.extraWireBytes += v.extraWireBytes;
      note('aliased-payload', () => ({
        kind: 'aliased-payload',
        payloadSize: v.payloadSize,
        aliasableFields: v.aliasableFields,
        aliasableBytes: v.aliasableBytes,
      }));
    } else {
      s.aliasing.on.copiedBytes += v.aliasableBytes;
    }
    if (v.reusedDeclaredNumbers > 0) {
      const ex = v.reuseExample!;
      note('reused-number', () => ({ kind: 'reused-number', number: ex.number, typeName: ex.typeName }));
    }
    if (v.numbersTooLarge > 0) note('number-too-large', () => ({ kind: 'number-too-large', number: v.tooLargeExample! }));
    const limits = options.newLimits;
    if (limits !== undefined && (v.payloadSize > limits.maxMessageSize || v.depth > limits.recursionLimit)) {
      note('exceeds-new-limit', () =>
        v.payloadSize > limits.maxMessageSize
          ? { kind: 'payload-too-large', payloadSize: v.payloadSize, value: limits.maxMessageSize }
          : { kind: 'too-deep', depth: v.depth, value: limits.recursionLimit },
      );
    }
  };
  return {
    addPayload: (payload, key, frameLength) => addPayloadRange(payload, 0, payload.length, key, frameLength),
    addPayloadRange,
    addScan,
    finish() {
      return { ...s, findings: [...findings.values()] };
    },
  };
}
