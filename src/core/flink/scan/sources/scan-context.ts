/**
 * What the layout sources share with the scan (scan-state.ts): the scan's context, what a source
 * yields, and the subtasks' stream headers and RocksDB snapshots, read once per scan or remembered
 * across scans (SubtaskHeaderCache).
 */
import type { DecodeError } from '../../../io';
import type { CancelSignal } from '../../cancel-signal';
import {
  readSubtaskKeyedStream,
  readSubtaskOperatorStream,
  type SubtaskKeyedStream,
  type SubtaskOperatorStream,
} from '../../headers/read-subtask-state-headers';
import type { KeyedEntryRun } from '../../keyed/keyed-entry-run';
import type { KeyedReadBuffers } from '../../keyed/keyed-read-buffers';
import type { KeyedStreamInput } from '../../keyed/keyed-stream-types';
import { listSampledKeyedInputs, narrowKeyedInputToKeyGroupRange, narrowKeyedInputToKeyGroups, type StateSample } from '../../keyed/sample-keyed-stream';
import type { OperatorState, SubtaskState } from '../../metadata/metadata-types';
import { openRocksDbSnapshot, type IncrementalHandle, type RocksDbSnapshot } from '../../rocksdb/open-rocksdb-snapshot';
import type { StateEntry } from '../../savepoint/inspection-types';
import type { OpenedSavepoint } from '../../savepoint/open-savepoint';
import type { SnapshotRegistry, ValueModeSource } from '../../snapshots/snapshot-types';
import type { ScanPart, StateScanResult, SubtaskHeaderCache } from '../scan-types';

/**
 * A run of a part's entries as a source yields it, valid until the next is asked for: a key-group
 * block (or window) framed into rows, a batch of decoded entries, or one entry of a reader that
 * decodes an entry at a time (its value mode looked up as it is read).
 */
export type EntryRun = KeyedEntryRun | readonly StateEntry[] | StateEntry;

/** A part whose entries a source reads: the scan visits its runs, then calls `done` (not after an error). */
export interface ReadablePart {
  part: ScanPart;
  runs: AsyncIterable<EntryRun>;
  /** nothing is read when every wanted state of the part has its cap of entries already (operator state) */
  unlessFull?: true;
  done?: () => void;
}

/** A part whose entries are not readable here: reported (StateScanVisitor.unreadable), or `error` thrown without that hook. */
export interface UnreadablePart {
  part: ScanPart;
  unreadable: string;
  error: () => DecodeError;
}

export type SourcePart = ReadablePart | UnreadablePart;

/** What every source of one scan reads with. */
export interface ScanContext {
  opened: OpenedSavepoint;
  registry: SnapshotRegistry;
  values: ValueModeSource;
  signal: CancelSignal | undefined;
  headers: SubtaskHeaderCache | undefined;
  /** one set for every canonical keyed stream of the scan (read one after the other), when the scan reuses its read buffers */
  readBuffers: KeyedReadBuffers | undefined;
  /** the selection's states (undefined: every state) */
  names: string | ReadonlySet<string> | undefined;
  wanted(name: string): boolean;
  sample: StateSample | undefined;
  /** the selection's key groups (undefined: every key group) */
  keyGroups: ReadonlySet<number> | undefined;
  /** the selection's key-group shard (undefined: every key group) */
  keyGroupRange: { start: number; end: number } | undefined;
  /** whether each state's entries are capped (a limit or a first-entries sample) */
  capped: boolean;
  /** every wanted state of the part has its cap of entries */
  isPartFull(part: ScanPart): boolean;
  /** the key groups read, counted by the keyed sources */
  result: StateScanResult;
}

/** How a keyed source reads a part's entries. */
export interface LayoutRead {
  /** the states to read (undefined: every state) */
  states: string | ReadonlySet<string> | undefined;
  values: ValueModeSource;
  /**
   * The part a scan reads: its key groups are counted (StateScanResult), read under the scan's sample,
   * and the read stops once the part's states are full. Absent: a changelog's materialized entries
   * (every key group of the selection, for the replay to apply its changes to).
   */
  scan?: ScanPart;
}

/** The streams a keyed source reads of the subtask's stream: narrowed to the selection's key groups (block order) or its key-group shard, and under a scan's sample. */
export function listLayoutInputs(ctx: ScanContext, input: KeyedStreamInput, read: LayoutRead): KeyedStreamInput[] {
  const range = ctx.keyGroupRange;
  if (ctx.keyGroups === undefined && range === undefined && read.scan === undefined) return [input];
  const sampled =
    ctx.keyGroups !== undefined
      ? narrowKeyedInputToKeyGroups(input, range === undefined ? ctx.keyGroups : [...ctx.keyGroups].filter((kg) => kg >= range.start && kg <= range.end))
      : range !== undefined
        ? narrowKeyedInputToKeyGroupRange(input, range, read.scan === undefined ? undefined : ctx.sample)
        : listSampledKeyedInputs(input, ctx.sample);
  if (read.scan !== undefined) {
    ctx.result.keyGroupsWithData += sampled.keyGroupsWithData;
    ctx.result.keyGroupsRead += sampled.keyGroupsRead;
  }
  return sampled.inputs;
}

export function isEntryBatch(run: EntryRun): run is readonly StateEntry[] {
  return Array.isArray(run);
}

export function createSubtaskHeaderCache(): SubtaskHeaderCache {
  return { operator: new Map(), keyed: new Map(), rocksdb: new Map() };
}

export function readOperatorStream(ctx: ScanContext, op: OperatorState, subtask: SubtaskState): Promise<SubtaskOperatorStream | undefined> {
  return readCachedOperatorStream(ctx.headers, ctx.opened, op, subtask, ctx.registry);
}

export function readKeyedStream(ctx: ScanContext, op: OperatorState, subtask: SubtaskState): Promise<SubtaskKeyedStream | undefined> {
  return readCachedKeyedStream(ctx.headers, ctx.opened, op, subtask, ctx.registry);
}

/** The subtask's operator stream header, read once per cache (`headers`; none: read now). The inspection reads through it too. */
export function readCachedOperatorStream(
  headers: SubtaskHeaderCache | undefined,
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: SubtaskState,
  registry: SnapshotRegistry,
): Promise<SubtaskOperatorStream | undefined> {
  const read = () => readSubtaskOperatorStream(opened, op, subtask, registry);
  return headers === undefined ? read() : remember(headers.operator, `${op.id}\u0000${subtask.index}`, read);
}

/** The subtask's keyed stream header, read once per cache (`headers`; none: read now). */
export function readCachedKeyedStream(
  headers: SubtaskHeaderCache | undefined,
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: SubtaskState,
  registry: SnapshotRegistry,
): Promise<SubtaskKeyedStream | undefined> {
  const read = () => readSubtaskKeyedStream(opened, op, subtask, registry);
  return headers === undefined ? read() : remember(headers.keyed, `${op.id}\u0000${subtask.index}`, read);
}

/** The subtask's RocksDB native snapshot (its managed keyed state's), opened once per cache. */
export function openRocksDbSnapshotOf(ctx: ScanContext, op: OperatorState, subtask: number, handle: IncrementalHandle): Promise<RocksDbSnapshot> {
  const open = () => openRocksDbSnapshot(ctx.opened, handle, { operatorId: op.id, subtask, role: 'managed keyed state' });
  return ctx.headers === undefined ? open() : remember(ctx.headers.rocksdb, `${op.id}\u0000${subtask}`, open);
}

async function remember<T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (p === undefined) {
    cache.set(key, (p = read()));
    p.catch(() => {
      if (cache.get(key) === p) cache.delete(key);
    });
  }
  return p;
}
