/**
 * A RocksDB native table of large values is read in batches bounded by their values' bytes, not by the
 * table: the decoded entries a scan holds between two drains (one batch) stay near 64 KiB of values
 * whatever the table's size, so each batch's decoded values (several times their bytes as JSON and
 * base64) die young instead of filling V8's old generation (issue #35: `inspect` of a 1 GB table grew to
 * 934 MB). The table is the test writer's, written to a temporary folder; no timing is asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openNodeInput } from '../../src/cli/sources';
import { createSnapshotRegistry, openSavepoint, scanState } from '../../src/core/flink';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { LARGE_ROCKSDB_OPERATOR, writeLargeRocksDbSavepoint } from '../helpers/write-large-rocksdb-savepoint';

const VALUE_BYTES = 2000;
const ENTRIES = 1200;
const BATCH_BYTES = 64 * 1024;

describe('RocksDB native entries in batches bounded by their values', () => {
  it('a table of 1,200 values of 2 KB in blocks of 600: every batch between drains holds at most 64 KiB of values (and one more), every entry decoded', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rocksdb-batches-'));
    try {
      const folder = path.join(dir, 'savepoint');
      writeLargeRocksDbSavepoint(folder, { entries: ENTRIES, blocks: 2, valueBytes: VALUE_BYTES });
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const opened = await openSavepoint(await openNodeInput(folder));
      let held = 0;
      let entries = 0;
      let failed = 0;
      let valueBytes = 0;
      const batches: number[] = [];
      await scanState(
        opened,
        registry,
        { operatorId: LARGE_ROCKSDB_OPERATOR, states: 'long-last-event', scopes: ['keyed'] },
        {
          entry(e) {
            entries++;
            if (e.value?.kind !== 'message') failed++;
            valueBytes = Math.max(valueBytes, e.valueRange!.length);
            held += e.valueRange!.length;
          },
          drain() {
            if (held > 0) batches.push(held);
            held = 0;
          },
        },
        { values: { mode: 'decode' } },
      );
      if (held > 0) batches.push(held);
      // subtask 0's and subtask 1's one, every value a decoded message
      expect([entries, failed]).toEqual([ENTRIES + 1, 0]);
      expect(valueBytes).toBeGreaterThan(VALUE_BYTES);
      expect(batches.length).toBeGreaterThan((ENTRIES * VALUE_BYTES) / BATCH_BYTES - 1);
      expect(Math.max(...batches)).toBeLessThan(BATCH_BYTES + valueBytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
