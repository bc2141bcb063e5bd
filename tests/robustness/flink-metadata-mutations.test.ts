/**
 * Robustness of the `_metadata` reader: byte mutations, truncations and insertions of the real
 * savepoints' `_metadata` files must either decode or throw a DecodeError — never another
 * exception, never a hang. Seeded (fast-check), so failures reproduce.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { isDecodeError } from '../../src/core/io';
import { NEEDS_SHARED, SHARED_SAVEPOINTS as ROOT } from '../helpers/shared-savepoints';

const FOLDERS = [
  'operatorstate/complexKeyed-flink1.20',
  'operatorstate/nonKeyed-flink1.20',
  'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint',
];

type Mutation =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'delete'; at: number; n: number };

function mutate(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let out = Uint8Array.from(bytes);
  for (const m of mutations) {
    const at = m.at % Math.max(out.length, 1);
    if (m.kind === 'set') out[at] = m.value;
    else if (m.kind === 'cut') out = out.subarray(0, at);
    else if (m.kind === 'insert') out = Uint8Array.from([...out.subarray(0, at), ...m.bytes, ...out.subarray(at)]);
    else out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(at + m.n)]);
  }
  return out;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      at: fc.nat(),
      value: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0, 0x7f, 0x80, 0xff)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 8 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 8 }) }) },
);

describe('readCheckpointMetadata under mutation', NEEDS_SHARED, () => {
  for (const folder of FOLDERS) {
    it(`${folder}: decodes or throws a DecodeError with file and offset`, () => {
      const original = new Uint8Array(readFileSync(path.join(ROOT, folder, '_metadata')));
      let decodeErrors = 0;
      fc.assert(
        fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), (mutations) => {
          const bytes = mutate(original, mutations);
          try {
            readCheckpointMetadata(bytes, '_metadata');
          } catch (e) {
            if (!isDecodeError(e)) throw e;
            decodeErrors++;
            expect(e.file).toBe('_metadata');
            expect(e.offset === undefined || (e.offset >= 0 && e.offset <= bytes.length)).toBe(true);
          }
        }),
        { numRuns: 1500, seed: 20260 },
      );
      expect(decodeErrors).toBeGreaterThan(0);
    });
  }
});
