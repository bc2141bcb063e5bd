/**
 * Robustness of the changelog replay: byte mutations, truncations and insertions in the in-memory changelog
 * records (META and data changes) of the real 1.17 changelog checkpoint must end in an inspection (each state
 * with its status) or a DecodeError — never another exception, never a hang. Seeded (fast-check).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, readCheckpointMetadata } from '../../src/core/flink';
import { bytesSource, isDecodeError } from '../../src/core/io';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { NEEDS_SHARED_TAG } from '../helpers/shared-savepoints';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';

const DIR = path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint');
const NEEDS_DEFECTS = { tags: [NEEDS_SHARED_TAG], skip: !existsSync(DIR) };

type Mutation = { kind: 'set'; at: number; value: number } | { kind: 'insert'; at: number; bytes: number[] } | { kind: 'delete'; at: number; n: number };

describe('changelog replay under mutation', NEEDS_DEFECTS, () => {
  it('new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint: a mutated change record gives an inspection or a DecodeError', async () => {
    const original = new Uint8Array(readFileSync(path.join(DIR, '_metadata')));
    // the byte range of the in-memory changes (code 9 handles): where the mutations land
    const changes = readCheckpointMetadata(original, '_metadata').operators.flatMap((op) =>
      op.subtasks.flatMap((s) =>
        s.managedKeyedState?.kind === 'changelog' ? s.managedKeyedState.nested.flatMap((n) => ('changes' in n ? (n.changes ?? []) : [])) : [],
      ),
    );
    const from = Math.min(...changes.map((c) => c.offset));
    const to = Math.max(...changes.map((c) => c.offset + c.length));
    const at = fc.integer({ min: from, max: to - 1 });
    const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('set' as const),
          at,
          value: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0, 1, 5, 7, 8, 9, 0x7f, 0x80, 0xff)),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('insert' as const), at, bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }) }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), at, n: fc.integer({ min: 1, max: 4 }) }) },
    );
    const files = openFolderSavepoint(DIR);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const outcomes = { inspected: 0, notFully: 0, decodeErrors: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), async (mutations) => {
        let bytes = Uint8Array.from(original);
        for (const m of mutations) {
          if (m.kind === 'set') bytes[m.at] = m.value;
          else if (m.kind === 'insert') bytes = Uint8Array.from([...bytes.subarray(0, m.at), ...m.bytes, ...bytes.subarray(m.at)]);
          else bytes = Uint8Array.from([...bytes.subarray(0, m.at), ...bytes.subarray(m.at + m.n)]);
        }
        try {
          const inspection = await inspectSavepoint(await openSavepoint({ ...files, metadata: bytesSource('_metadata', bytes) }), registry, {
            countEntries: true,
          });
          outcomes.inspected++;
          // never silent: every state has an outcome
          const states = inspection.operators.flatMap((o) => o.states);
          expect(states.every((s) => s.decoded !== undefined)).toBe(true);
          if (states.some((s) => s.decoded !== 'fully')) outcomes.notFully++;
        } catch (e) {
          if (!isDecodeError(e)) throw e;
          outcomes.decodeErrors++;
        }
      }),
      { numRuns: 300, seed: 20261203 },
    );
    expect(outcomes.inspected).toBeGreaterThan(0);
    expect(outcomes.notFully + outcomes.decodeErrors).toBeGreaterThan(0);
  });
});
