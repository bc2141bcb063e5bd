/**
 * scanProtobufPayloadRangeInto (the whole-state scan straight from a read buffer) gives exactly what
 * scanProtobufPayloadInto gives for the payload alone, field log included: for well-formed values, and
 * for mutated and cut ones whose scan runs past the payload's end into the bytes after it (set to
 * continuation bytes, so an over-read would change what a failing scan counted).
 */
import { describe, expect, it } from 'vitest';
import {
  buildProtobufScanIndex,
  createEmptyScan,
  createProtobufFieldLog,
  scanProtobufPayloadInto,
  scanProtobufPayloadRangeInto,
} from '../../src/core/protobuf';
import { createRandom, encodeValuePool, loadBenchSchema } from '../../bench/generate/bench-values';

describe('scanProtobufPayloadRangeInto', () => {
  it('equals the scan of the payload alone, for 3,000 values, mutated and cut ones included', () => {
    const schema = loadBenchSchema();
    const index = buildProtobufScanIndex(schema.event);
    const rnd = createRandom(3);
    const alone = createEmptyScan();
    const inPlace = createEmptyScan();
    const logAlone = createProtobufFieldLog();
    const logInPlace = createProtobufFieldLog();
    let failed = 0;
    for (const original of encodeValuePool(schema, 3000, 9)) {
      const payload = original.slice();
      const mode = rnd();
      if (mode < 0.3) for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) payload[Math.floor(rnd() * payload.length)] = Math.floor(rnd() * 256);
      const present = mode >= 0.3 && mode < 0.45 ? Math.floor(rnd() * payload.length) : payload.length;
      const frameLength = mode >= 0.45 && mode < 0.5 ? payload.length + 3 : present;
      // the payload in a buffer between bytes that all continue a varint
      const before = Math.floor(rnd() * 9);
      const buffer = new Uint8Array(before + present + 16).fill(0xff);
      buffer.set(payload.subarray(0, present), before);
      const options = { maxMessageSize: 1 << 20, recursionLimit: 100, root: schema.event, frameLength };
      scanProtobufPayloadInto(alone, payload.slice(0, present), index, { ...options, fieldLog: logAlone });
      scanProtobufPayloadRangeInto(inPlace, buffer, before, before + present, index, { ...options, fieldLog: logInPlace });
      expect(inPlace).toEqual(alone);
      expect(logInPlace).toEqual(logAlone);
      if (alone.error) failed++;
    }
    expect(failed).toBeGreaterThan(300);
  });
});

describe('the UTF-8 check of proto3 strings (word reads through a view of the read buffer)', () => {
  it('flags exactly the invalid strings, for every length up to 20, non-ASCII byte position and buffer offset', () => {
    const schema = loadBenchSchema();
    const index = buildProtobufScanIndex(schema.event);
    const out = createEmptyScan();
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const isUtf8 = (b: Uint8Array) => {
      try {
        fatal.decode(b);
        return true;
      } catch {
        return false;
      }
    };
    // bench.Event.id (field 1) is a proto3 string: tag 0x0a, a one-byte length, the bytes
    const cases: Uint8Array[] = [];
    for (let length = 0; length <= 20; length++) {
      cases.push(new Uint8Array(length).fill(0x61));
      for (let at = 0; at < length; at++) {
        for (const odd of [[0x80], [0xc3, 0xa9], [0xff], [0xe2, 0x82, 0xac], [0xe2, 0x82]]) {
          const s = new Uint8Array(length).fill(0x61);
          s.set(odd.slice(0, length - at), at);
          cases.push(s);
        }
      }
    }
    let invalid = 0;
    for (let shift = 0; shift < 8; shift++) {
      // all cases back to back in one buffer that starts `shift` bytes into its ArrayBuffer, after `shift`
      // bytes of its own: consecutive scans of the same buffer, at every alignment
      const payloads = cases.map((s) => Uint8Array.from([0x0a, s.length, ...s]));
      const size = shift + payloads.reduce((n, p) => n + p.length, 0);
      const buffer = new Uint8Array(new ArrayBuffer(size + shift), shift, size);
      let at = shift;
      const ranges: number[] = [];
      for (const p of payloads) {
        buffer.set(p, at);
        ranges.push(at, at + p.length);
        at += p.length;
      }
      for (let k = 0; k < cases.length; k++) {
        const options = { maxMessageSize: 1 << 20, recursionLimit: 100, root: schema.event };
        scanProtobufPayloadRangeInto(out, buffer, ranges[2 * k]!, ranges[2 * k + 1]!, index, options);
        const valid = isUtf8(cases[k]!);
        expect(out.error === undefined, `string ${Array.from(cases[k]!).join(',')} at ${ranges[2 * k]}`).toBe(valid);
        if (!valid) {
          invalid++;
          expect(out.error!.message).toContain('invalid UTF-8');
        }
      }
    }
    expect(invalid).toBeGreaterThan(1000);
  });
});

describe('scanProtobufPayloadRangeInto arguments', () => {
  it('refuses a range outside the buffer (a caller error, not a payload error)', () => {
    const schema = loadBenchSchema();
    const index = buildProtobufScanIndex(schema.event);
    const options = { maxMessageSize: 1 << 20, recursionLimit: 100, root: schema.event };
    const bytes = Uint8Array.from([0x0a, 0x01, 0x61]);
    expect(() => scanProtobufPayloadRangeInto(createEmptyScan(), bytes, -1, 3, index, options)).toThrow('expected a range within the 3 bytes, found [-1, 3)');
    expect(() => scanProtobufPayloadRangeInto(createEmptyScan(), bytes, 0, 4, index, options)).toThrow('expected a range within the 3 bytes, found [0, 4)');
    expect(() => scanProtobufPayloadRangeInto(createEmptyScan(), bytes, 2, 1, index, options)).toThrow('expected a range within the 3 bytes, found [2, 1)');
    const out = createEmptyScan();
    scanProtobufPayloadRangeInto(out, bytes, 0, 3, index, options);
    expect(out.error).toBeUndefined();
  });
});
