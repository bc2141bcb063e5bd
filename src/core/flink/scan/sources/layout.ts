/** The keyed source of a subtask's stream, by its layout (a changelog's: its materialized part's). */
import type { SubtaskKeyedStream } from '../../headers/read-subtask-state-headers';
import type { OperatorState } from '../../metadata/metadata-types';
import { readCanonicalRuns } from './canonical';
import { readHeapRuns } from './heap';
import { readRocksDbRuns } from './rocksdb';
import type { EntryRun, LayoutRead, ScanContext } from './scan-context';

/**
 * The runs of the keyed stream's entries, or undefined when its layout has no source here. A scan
 * reads the canonical, RocksDB full-snapshot, heap and RocksDB native layouts; a changelog's
 * materialized part is read as heap, RocksDB native, or else in the canonical block layout.
 */
export function readLayoutRuns(
  ctx: ScanContext,
  op: OperatorState,
  subtask: number,
  keyed: SubtaskKeyedStream,
  read: LayoutRead,
): AsyncIterable<EntryRun> | undefined {
  const layout = keyed.materializedFormat ?? keyed.format;
  const header = keyed.header;
  if (header === undefined) return undefined;
  if (layout === 'rocksdb-native' && keyed.rocksdb) return readRocksDbRuns(ctx, op, subtask, keyed.rocksdb, header, read);
  if (!keyed.input) return undefined;
  if (layout === 'heap') return readHeapRuns(ctx, keyed.input, header, read);
  if (read.scan !== undefined && layout !== 'canonical' && layout !== 'rocksdb-full') return undefined;
  return readCanonicalRuns(ctx, keyed.input, header, read);
}
