/**
 * ValueCodec.skip (keys checked in place by a whole-state tally) may answer "ends here" only where
 * decode reads the same value without an error and ends at the same byte; StringSerializer's skip
 * mirrors readStringValue exactly (every string decode reads, skip finds; every one it refuses, skip
 * refuses). Seeded random inputs: valid StringValue encodings, and the same with bytes changed,
 * cut short or extended.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../src/core/io';
import { type ValueCodec } from '../../src/core/flink';
import { SIMPLE_TYPES } from '../../src/core/flink/snapshots/simple-snapshots';
import { stringCodec } from '../../src/core/flink/values/string-codecs';
import { createRandom } from '../../bench/generate/bench-values';

/** decode's end (relative to pos), or -1 when it throws */
function decodeEnd(codec: ValueCodec, bytes: Uint8Array, pos: number, end: number): number {
  const r = new ByteReader(bytes.subarray(pos, end));
  try {
    codec.decode(r);
  } catch {
    return -1;
  }
  return r.position;
}

function randomString(rnd: () => number): string {
  const n = Math.floor(rnd() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    const k = rnd();
    s +=
      k < 0.7
        ? String.fromCharCode(32 + Math.floor(rnd() * 95))
        : k < 0.85
          ? String.fromCharCode(0x80 + Math.floor(rnd() * 0x780))
          : String.fromCharCode(0x800 + Math.floor(rnd() * 0xf000));
  }
  return s;
}

function inputs(seed: number, count: number): Uint8Array[] {
  const rnd = createRandom(seed);
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const w = new ByteWriter();
    if (rnd() < 0.1)
      w.u8(0); // the null string
    else w.stringValue(randomString(rnd));
    const bytes = [...w.finish()];
    const mode = rnd();
    if (mode < 0.3 && bytes.length > 0) bytes[Math.floor(rnd() * bytes.length)] = Math.floor(rnd() * 256);
    else if (mode < 0.45) bytes.length = Math.floor(rnd() * bytes.length);
    else if (mode < 0.6) for (let j = Math.floor(rnd() * 8); j > 0; j--) bytes.push(Math.floor(rnd() * 256));
    else if (mode < 0.7) for (let j = 0; j < 6; j++) bytes.push(0x80 | Math.floor(rnd() * 128)); // over-long varints
    out.push(new Uint8Array([0xee, ...bytes, 0xee]));
  }
  return out;
}

describe('ValueCodec.skip agrees with decode', () => {
  it('StringSerializer: skip finds exactly where readStringValue ends, and refuses exactly what it refuses', () => {
    let valid = 0;
    let refused = 0;
    for (const bytes of inputs(11, 6000)) {
      // the value sits between two marker bytes; `end` is where its reader ends
      for (const end of [bytes.length - 1, bytes.length]) {
        const want = decodeEnd(stringCodec, bytes, 1, end);
        const got = stringCodec.skip!(bytes, 1, end);
        expect(got < 0 ? -1 : got - 1).toBe(want);
        if (want >= 0) valid++;
        else refused++;
      }
    }
    // both outcomes occur often enough that a wrong answer either way would show
    expect(valid).toBeGreaterThan(3000);
    expect(refused).toBeGreaterThan(1500);
  });

  it('every simple codec with a skip: an answer of "ends here" is decode\'s end without an error', () => {
    const rnd = createRandom(5);
    const withSkip = [...SIMPLE_TYPES.entries()].filter(([, t]) => t.codec.skip !== undefined);
    expect(withSkip.map(([, t]) => t.label)).toEqual(expect.arrayContaining(['Integer', 'Long', 'String', 'VoidNamespace', 'TimeWindow', 'GlobalWindow']));
    for (const [, type] of withSkip) {
      for (let i = 0; i < 300; i++) {
        const bytes = new Uint8Array(Math.floor(rnd() * 20)).map(() => Math.floor(rnd() * 256));
        const pos = Math.floor(rnd() * (bytes.length + 1));
        const got = type.codec.skip!(bytes, pos, bytes.length);
        if (got >= 0) expect(got - pos, type.label).toBe(decodeEnd(type.codec, bytes, pos, bytes.length));
        else if (type.fixedLength >= 0 && type.label !== 'VoidNamespace') expect(bytes.length - pos, type.label).toBeLessThan(type.fixedLength);
      }
    }
  });
});
