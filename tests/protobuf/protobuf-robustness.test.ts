/**
 * Hostile input: mutated and truncated snapshots and frames only ever fail with DecodeErrors
 * (never a TypeError/RangeError or a hang), and valid parts still read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader, isDecodeError } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS } from '../../src/core/protobuf';
import { decodeProtobufValue } from '../../src/core/protobuf/decode-protobuf-value';
import { readProtobufSnapshotContent } from '../../src/core/protobuf/read-protobuf-snapshot';
import { ENVELOPE_CLASS, ENVELOPE_NAME, hex, loadTestSchema, writeEnvelopeSnapshot } from './protobuf-test-schemas';

const payload = writeEnvelopeSnapshot().subarray(65);
const root = loadTestSchema('snapshot', ENVELOPE_NAME).root;
const example = hex('00 00 00 1e 08 2a 12 07 0a 05 73 61 76 65 64 1a 02 08 07 20 01 2a 08 0a 06 6e 65 73 74 65 64 a0 06 63');

function mutate(base: Uint8Array) {
  return fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }).map((edits) => {
    const copy = Uint8Array.from(base);
    for (const [i, b] of edits) copy[i % copy.length] = b;
    return copy;
  });
}

function onlyDecodeErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    expect(['protobuf', 'limit-exceeded']).toContain(e.code);
  }
}

describe('hostile Protobuf input', () => {
  it('mutated snapshot payloads fail only with DecodeErrors', () => {
    fc.assert(
      fc.property(mutate(payload), (bytes) => onlyDecodeErrors(() => readProtobufSnapshotContent(new ByteReader(bytes), 1))),
      { numRuns: 400, seed: 7 },
    );
  });

  it('mutated descriptor bytes (with a matching digest) fail only with DecodeErrors', async () => {
    const { computeSha256 } = await import('../../src/core/protobuf');
    const descriptors = payload.subarray(129, 129 + 598);
    fc.assert(
      fc.property(mutate(descriptors), (d) => {
        const bytes = Uint8Array.from([...payload.subarray(0, 129), ...d, ...computeSha256(d)]);
        onlyDecodeErrors(() => readProtobufSnapshotContent(new ByteReader(bytes), 1));
      }),
      { numRuns: 400, seed: 11 },
    );
  });

  it('mutated frames fail only with DecodeErrors', () => {
    const target = { root, javaClass: ENVELOPE_CLASS, settings: DEFAULT_PROTOBUF_SETTINGS };
    fc.assert(
      fc.property(fc.oneof(mutate(example), fc.uint8Array({ maxLength: 64 })), (bytes) =>
        onlyDecodeErrors(() => decodeProtobufValue(new ByteReader(bytes), target)),
      ),
      { numRuns: 2000, seed: 13 },
    );
  });
});
