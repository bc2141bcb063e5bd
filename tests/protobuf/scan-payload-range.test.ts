/**
 * scanProtobufPayloadRangeInto (the whole-state scan straight from a read buffer) gives exactly what
 * scanProtobufPayloadInto gives for the payload alone, field log included: for well-formed values, and
 * for mutated and cut ones whose scan runs past the payload's end into the bytes after it (set to
 * continuation bytes, so an over-read would change what a failing scan counted).
 */
import { describe, expect, it } from 'vitest';
import { buildProtobufScanIndex, createEmptyScan, createProtobufFieldLog, scanProtobufPayloadInto, scanProtobufPayloadRangeInto } from '../../src/core/protobuf';
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
