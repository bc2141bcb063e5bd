/**
 * The keyed state entries of a RocksDB native snapshot of one subtask, in Flink's RocksDB key layout
 * (RocksDBKeySerializationUtils, RocksDBKeyedStateBackend): one column family per state (its name),
 * each key = key-group prefix (1 byte, 2 above max parallelism 128) + serialized key (+ its length
 * when key and namespace are both variable-length) + namespace (likewise) + the MapState user key; a
 * timer column family's key is the whole serialized timer. Values are the state serializer's bytes
 * (MapState: a null flag first; ListState: elements joined by ','), TTL-wrapped as the serializer
 * says: the same rows as the RocksDB full-snapshot layout, decoded by the same code
 * (decode-keyed-entry.ts). States are read one after the other in the header's order, each column
 * family's live files merged (merge-sst-entries.ts); entries outside the handle's key-group range
 * (left over in shared files after rescaling) are not the subtask's and are passed over.
 */
import { ByteReader, DecodeError } from '../../io';
import { throwIfCancelled, type CancelSignal } from '../cancel-signal';
import { isWantedState } from '../is-wanted-state';
import { decodeKeyedEntryInto, planKeyedDecode } from '../keyed/decode-keyed-entry';
import type { KeyedStateHeader, StateEntry } from '../savepoint/inspection-types';
import type { ValueModeSource } from '../snapshots/snapshot-types';
import { SstMerge } from './merge-sst-entries';
import { type RangeTombstone, type UserKeyRange } from './open-sst-table';
import { END, NEED_BLOCK, type SstTableCursor } from './sst-table-cursor';
import type { RocksDbSnapshot } from './open-rocksdb-snapshot';
import type { KeyGroupRange } from '../metadata/metadata-types';

export interface RocksDbKeyedInput {
  operatorId: string;
  subtask: number;
  maxParallelism: number;
  range: KeyGroupRange;
  snapshot: RocksDbSnapshot;
}

export interface RocksDbReadOptions {
  state?: string | ReadonlySet<string>;
  values?: ValueModeSource;
  signal?: CancelSignal;
  /** only key groups this accepts */
  keyGroup?: (kg: number) => boolean;
  /** the key groups to seek to (the tables' indexes are searched for the first; reading stops past the last); default the handle's range */
  keyGroupRange?: { start: number; end: number };
  /** with keyGroupRange: the tables whose smallest and largest keys (in the MANIFEST) show all their keys outside it are not opened (a key-group shard) */
  skipTablesOutside?: boolean;
  /** called once per key group with data (in the subtask's range), before its first entry is filtered */
  onKeyGroup?: (kg: number) => void;
}

/**
 * A batch of decoded entries is yielded once its values reach this many bytes: the decoded values (a
 * Protobuf message's JSON, a bytes field's base64) are many times their bytes, and a batch of 512
 * large ones outlived V8's young generation, so every value of a large table was promoted and collected
 * by full collections (an inspect of a 1 GB table: most of its time in GC, its heap grown to 900 MB;
 * 256 KiB still halved what 64 KiB costs in scavenges).
 */
const MAX_BATCH_VALUE_BYTES = 64 * 1024;
/** and once it holds this many entries */
const MAX_BATCH_ENTRIES = 512;

/** The entries in batches (of at most MAX_BATCH_ENTRIES, or fewer when their values are large): no await per entry. */
export async function* readRocksDbKeyedEntries(
  input: RocksDbKeyedInput,
  header: KeyedStateHeader,
  options: RocksDbReadOptions = {},
): AsyncGenerator<StateEntry[]> {
  const { snapshot } = input;
  const byName = new Map([...snapshot.version.columnFamilies.values()].map((cf) => [cf.name, cf]));
  const prefixBytes = input.maxParallelism > 128 ? 2 : 1;
  const seenKeyGroups = new Set<number>();
  for (const state of header.states) {
    if (options.state !== undefined && !isWantedState(options.state, state.name)) continue;
    const cf = byName.get(state.name);
    if (!cf) {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected a column family "${state.name}" (the state's) in ${snapshot.manifest}, found ${byName.size === 1 ? 'only' : `${byName.size} others:`} ${[...byName.keys()].map((n) => JSON.stringify(n)).join(', ')}`,
        file: snapshot.manifestFile,
        offset: 0,
        path: [state.name],
      });
    }
    const plan = planKeyedDecode(state, header.keySerializer, input.maxParallelism);
    const files = [...cf.files.values()].sort((a, b) => a.level - b.level || b.number - a.number);
    const tables: ((range: UserKeyRange) => SstTableCursor)[] = [];
    const tombstones: RangeTombstone[] = [];
    const only = options.skipTablesOutside === true ? options.keyGroupRange : undefined;
    for (const f of files) {
      if (only !== undefined && isTableOutside(f.smallestKeyPrefix, f.largestKeyPrefix, prefixBytes, only)) continue;
      const table = await snapshot.openTable(f.number, cf.name);
      const file = table.file;
      if (table.properties.columnFamilyName !== undefined && table.properties.columnFamilyName !== cf.name) {
        throw new DecodeError({
          code: 'invalid-value',
          detail: `expected table file ${String(f.number).padStart(6, '0')}.sst of column family "${cf.name}" (as ${snapshot.manifest} says), found one of column family "${table.properties.columnFamilyName}"`,
          file,
          offset: table.properties.at['rocksdb.column.family.name'] ?? 0,
        });
      }
      // an ingested file's keys all carry its global sequence number
      tables.push((range: UserKeyRange) => table.liveCursor(f.largestSequence, range));
      tombstones.push(...table.liveTombstones(f.largestSequence));
    }
    const range = keyRange(prefixBytes, input.range, options.keyGroupRange);
    // the merge over the files' cursors: no await but once per data block, nothing allocated per entry but the decoded entry and
    // its key (a copy); its value is a view into a block that is not reused (or a merged value of its own), so a batch outlives the blocks' reads
    const merge = new SstMerge(
      tables.map((cursor) => cursor(range)),
      tombstones,
    );
    let out: StateEntry[] = [];
    let held = 0;
    for (;;) {
      const r = merge.next();
      if (r === NEED_BLOCK) {
        throwIfCancelled(options.signal);
        await merge.load();
        continue;
      }
      if (r === END) break;
      const keyLength = merge.keyLength;
      if (keyLength < prefixBytes) {
        throw new DecodeError({
          code: 'invalid-value',
          detail: `expected a key of state "${state.name}" with its ${prefixBytes}-byte key-group prefix, found ${keyLength} bytes`,
          file: merge.file,
          offset: merge.keyOffset,
        });
      }
      const k = merge.key;
      const kg = prefixBytes === 2 ? (k[0]! << 8) | k[1]! : k[0]!;
      if (kg < input.range.start || kg > input.range.end) continue;
      if (!seenKeyGroups.has(kg)) {
        seenKeyGroups.add(kg);
        options.onKeyGroup?.(kg);
      }
      if (options.keyGroup && !options.keyGroup(kg)) continue;
      const value = merge.value.subarray(merge.valueStart, merge.valueEnd);
      const entry = decodeKeyedEntryInto(
        { operatorId: input.operatorId, state: state.name, subtask: input.subtask },
        plan,
        new ByteReader(k.slice(0, keyLength), { file: merge.file, baseOffset: merge.keyOffset }),
        new ByteReader(value, { file: merge.file, baseOffset: merge.valueOffset }),
        kg,
        options.values?.mode,
      ) as StateEntry;
      entry.file = merge.file;
      entry.valueRange = { offset: merge.valueOffset, length: value.length };
      out.push(entry);
      // decoded values die young: a batch holds at most about MAX_BATCH_VALUE_BYTES of them
      held += value.length;
      if (held >= MAX_BATCH_VALUE_BYTES || out.length >= MAX_BATCH_ENTRIES) {
        yield out;
        out = [];
        held = 0;
      }
    }
    if (out.length > 0) yield out;
  }
}

/** The user keys of the key groups in both ranges: from the first one's prefix to the prefix after the last one. */
function keyRange(prefixBytes: number, handle: KeyGroupRange, wanted: { start: number; end: number } | undefined): UserKeyRange {
  const start = Math.max(handle.start, wanted?.start ?? handle.start);
  const end = Math.min(handle.end, wanted?.end ?? handle.end);
  const prefix = (kg: number) => (prefixBytes === 2 ? Uint8Array.of(kg >>> 8, kg & 0xff) : Uint8Array.of(kg));
  if (end < start) return { from: prefix(Math.max(0, start)), to: prefix(Math.max(0, start)) };
  const max = prefixBytes === 2 ? 0xffff : 0xff;
  return { from: prefix(start), ...(end + 1 <= max ? { to: prefix(end + 1) } : {}) };
}

/**
 * Whether every key of a table lies outside the key groups `range` (by the key-group prefixes of its
 * smallest and largest user keys, as the MANIFEST records them; a range tombstone's bounds are within
 * them). A key shorter than its prefix tells nothing: the table is read.
 */
function isTableOutside(
  smallest: Uint8Array | undefined,
  largest: Uint8Array | undefined,
  prefixBytes: number,
  range: { start: number; end: number },
): boolean {
  if (smallest === undefined || largest === undefined || smallest.length < prefixBytes || largest.length < prefixBytes) return false;
  const kg = (k: Uint8Array) => (prefixBytes === 2 ? (k[0]! << 8) | k[1]! : k[0]!);
  return kg(largest) < range.start || kg(smallest) > range.end;
}
