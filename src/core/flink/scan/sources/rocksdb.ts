/** The RocksDB native source: a subtask's SST files (its snapshot opened once per header cache), in batches of decoded entries. */
import type { SubtaskKeyedStream } from '../../headers/read-subtask-state-headers';
import type { OperatorState } from '../../metadata/metadata-types';
import { readRocksDbKeyedEntries } from '../../rocksdb/read-rocksdb-keyed-entries';
import type { KeyedStateHeader, StateEntry } from '../../savepoint/inspection-types';
import { openRocksDbSnapshotOf, type LayoutRead, type ScanContext } from './scan-context';

/**
 * The entries of the wanted states, state after state, in batches (readRocksDbKeyedEntries): the
 * selection's key groups (each table's index searched for the first, reading stopped past the last),
 * else under a scan the sample's. A scan counts the key groups with data and those read, also when it
 * stops early or fails.
 */
export async function* readRocksDbRuns(
  ctx: ScanContext,
  op: OperatorState,
  subtask: number,
  rocksdb: NonNullable<SubtaskKeyedStream['rocksdb']>,
  header: KeyedStateHeader,
  read: LayoutRead,
): AsyncGenerator<readonly StateEntry[]> {
  const snapshot = await openRocksDbSnapshotOf(ctx, op, subtask, rocksdb.handle);
  const input = { operatorId: op.id, subtask, maxParallelism: rocksdb.maxParallelism, range: rocksdb.handle.range, snapshot };
  const only = ctx.keyGroups;
  const shard = ctx.keyGroupRange;
  const inShard = (kg: number): boolean => shard === undefined || (kg >= shard.start && kg <= shard.end);
  const filter = { ...(read.states === undefined ? {} : { state: read.states }), ...(ctx.signal ? { signal: ctx.signal } : {}), values: read.values };
  if (read.scan === undefined) {
    yield* readRocksDbKeyedEntries(input, header, {
      ...filter,
      ...(shard ? { keyGroupRange: shard, skipTablesOutside: true } : {}),
      keyGroup: (kg: number) => inShard(kg) && (only === undefined || only.has(kg)),
    });
    return;
  }
  const sample = ctx.sample;
  const seen = new Set<number>();
  const taken = new Set<number>();
  const keyGroup = (kg: number): boolean => {
    const go = !inShard(kg) ? false : only !== undefined ? only.has(kg) : sample?.kind === 'key-groups' ? kg % sample.every === 0 : true;
    if (go) taken.add(kg);
    return go;
  };
  // selected key groups (a page of the app): each table's index is searched for the first, reading stops past the last
  // a key-group shard: the same, and the tables whose keys all lie outside it are not opened
  const selected = only === undefined || only.size === 0 ? undefined : { start: Math.min(...only), end: Math.max(...only) };
  const keyGroupRange =
    shard === undefined ? selected : selected === undefined ? shard : { start: Math.max(shard.start, selected.start), end: Math.min(shard.end, selected.end) };
  try {
    yield* readRocksDbKeyedEntries(input, header, {
      ...filter,
      ...(keyGroupRange ? { keyGroupRange } : {}),
      ...(shard ? { skipTablesOutside: true } : {}),
      keyGroup,
      onKeyGroup: (kg: number) => void ((only === undefined || only.has(kg)) && inShard(kg) ? seen.add(kg) : undefined),
    });
  } finally {
    ctx.result.keyGroupsWithData += seen.size;
    ctx.result.keyGroupsRead += taken.size;
  }
}
