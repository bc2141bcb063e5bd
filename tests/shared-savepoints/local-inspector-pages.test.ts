/**
 * Every state of the shared Flink savepoints (../shared/flink-savepoints): the app's values table
 * equals an independent full read (tests/helpers/expect-pages-match-full-read.ts). Skipped, and
 * counted at the end of the run, when that folder is absent.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectPagesMatchFullRead } from '../helpers/expect-pages-match-full-read';
import { NEEDS_SHARED, sharedSavepoint } from '../helpers/shared-savepoints';

// the savepoint folders at the top of ../shared/flink-savepoints (operatorstate/ holds two _metadata-only ones)
const FOLDERS = [
  'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink1.20-rocksdb-savepoint',
  'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint',
];

describe('values table over the shared Flink savepoints (../shared/flink-savepoints)', NEEDS_SHARED, () => {
  it.each(FOLDERS)('%s: every state page by page and row by row equals a full read', async (name) => {
    expect(await expectPagesMatchFullRead(sharedSavepoint(name))).toBeGreaterThan(0);
  });
});

describe('values table over the replayed changelog checkpoint (../shared/real-savepoints-defects)', NEEDS_SHARED, () => {
  it('new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint: the replayed states page by page equal a full read', async () => {
    const dir = path.resolve(process.cwd(), '../shared/real-savepoints-defects/new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint');
    // 4 source strings twice, 4 keys of 4 keyed states in each of two timely and two flat-map operators' states
    expect(await expectPagesMatchFullRead(dir)).toBe(8 + 4 * (3 + 3 + 1 + 1));
  });
});
