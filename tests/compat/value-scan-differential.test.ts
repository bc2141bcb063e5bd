/**
 * The value warnings read saved values with the structural scan and a field log
 * (scanProtobufStateValues); whenever the scan accepts a value without asking for the full
 * decoder, its fields must be exactly those summarizeProtobufValue takes from the full decode.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DescMessage } from '@bufbuild/protobuf';
import { summarizeProtobufValue } from '../../src/core/compat/value-scan/scan-protobuf-state-values';
import { buildProtobufScanIndex, createEmptyScan, createProtobufFieldLog, listLoggedFields, scanProtobufPayloadInto } from '../../src/core/protobuf';
import { decodeProtobufValue } from '../../src/core/protobuf/decode-protobuf-value';
import { writeProtobufFrame } from '../../src/core/protobuf/write-protobuf-frame';
import { ByteReader, ByteWriter } from '../../src/core/io';
import { encodeValuePool, loadBenchSchema } from '../../bench/generate/bench-values';
import { loadTestSchema, RECURSIVE_SAMPLE_PAYLOADS } from '../protobuf/protobuf-test-schemas';

const recursive = loadTestSchema('serializer', 'flink.protobuf.serializer.RecursiveMessage').root;
const bench = loadBenchSchema().event;

function sortFields<T extends { message: string; number: number; wireType: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : a.number - b.number || a.wireType - b.wireType));
}

function compare(desc: DescMessage, payload: Uint8Array, recursionLimit: number): 'scanned' | 'full decode' {
  const index = buildProtobufScanIndex(desc);
  const out = createEmptyScan();
  const log = createProtobufFieldLog();
  scanProtobufPayloadInto(out, payload, index, { maxMessageSize: 1 << 20, recursionLimit, fieldLog: log });
  if (out.error !== undefined || log.needsFullDecode || out.reusedDeclaredNumbers > 0 || out.numbersTooLarge > 0) return 'full decode';
  const w = new ByteWriter();
  writeProtobufFrame(w, payload, 1 << 20);
  const frame = w.finish();
  const detail = decodeProtobufValue(new ByteReader(frame), {
    root: desc,
    javaClass: 'x',
    settings: { maxMessageSize: 1 << 20, recursionLimit, deterministic: false },
  });
  const expected = summarizeProtobufValue('k', detail);
  const fields = listLoggedFields(index, log);
  expect(out.payloadSize).toBe(expected.payloadSize);
  expect(out.depth).toBe(expected.depth);
  expect(sortFields(fields.unknown)).toEqual(sortFields(expected.unknownFields));
  expect(sortFields(fields.known)).toEqual(sortFields(expected.knownFields));
  return 'scanned';
}

describe('structural field log vs the full decoder (value warnings)', () => {
  it('gives the same fields for bench Event values (maps, packed numbers, nested messages, bytes) and their mutations', () => {
    const pool = encodeValuePool(loadBenchSchema(), 64, 11);
    let scanned = 0;
    for (const p of pool) if (compare(bench, p, 100) === 'scanned') scanned++;
    expect(scanned).toBe(pool.length);
    fc.assert(
      fc.property(fc.constantFrom(...pool), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), (v, i, b, cut) => {
        const copy = Uint8Array.from(v);
        copy[i % copy.length] = b;
        compare(bench, copy.subarray(0, copy.length - (cut % 3 === 0 ? cut % 7 : 0)), 100);
      }),
      { numRuns: 3000, seed: 20261129 },
    );
  });

  it('gives the same fields for serializer.proto values with unknown fields, groups and map entries, and their mutations', () => {
    const valid = RECURSIVE_SAMPLE_PAYLOADS;
    const outcomes = new Set(valid.map((v) => compare(recursive, v, 100)));
    expect(outcomes.has('scanned')).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...valid), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 4 }), (v, i, b, limit) => {
        const copy = Uint8Array.from(v);
        copy[i % copy.length] = b;
        compare(recursive, copy, limit);
      }),
      { numRuns: 3000, seed: 20261129 },
    );
  });
});
