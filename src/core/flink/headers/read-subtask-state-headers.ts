import { ByteReader, DecodeError, isDecodeError, withDecodePathAsync } from '../../io';
import { formatOperatorPathSegment } from '../metadata/read-checkpoint-metadata-operator';
import type { KeyedStateHeader, OperatorStateHeader, StateMetaInfo } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { computeKeyedHeaderFence } from '../keyed/read-canonical-keyed-entries';
import { detectKeyGroupsLayout, measureLayoutProbe } from '../keyed/detect-key-groups-layout';
import type { KeyedStreamInput } from '../keyed/keyed-stream-types';
import { readKeyedStateHeader } from './read-keyed-state-header';
import { readOperatorStateHeader } from './read-operator-state-header';
import { computeOperatorHeaderFence, type OperatorStreamInput } from '../operator/read-operator-state-entries';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { KeyedStateHandle, OperatorState, SubtaskState } from '../metadata/metadata-types';
import { readChangelogPart, type ChangelogPart } from './read-changelog-part';
import { decodeChangelogChanges, type ChangelogKeySource, type ChangelogReplayInput } from '../keyed/decode-changelog-changes';
import type { IncrementalHandle } from '../rocksdb/open-rocksdb-snapshot';

/** The exact text shown for states of RocksDB native (incremental) snapshots whose meta data handle is absent. */
export const ROCKSDB_NATIVE_UNREADABLE = 'RocksDB native snapshot: SST files are not readable here; take a canonical savepoint';

/**
 * canonical: code 7; heap: code 3/12 in the heap snapshot layout; rocksdb-full: code 3/12 in the RocksDB
 * full-snapshot layout (the canonical block layout); undetermined: code 3/12 whose bytes fit neither;
 * rocksdb-native: code 5/11 (SST files); changelog: code 8/14.
 */
export type KeyedStreamFormat = 'canonical' | 'heap' | 'rocksdb-full' | 'undetermined' | 'rocksdb-native' | 'changelog';

export interface SubtaskKeyedStream {
  format: KeyedStreamFormat;
  /** present for canonical, heap, rocksdb-full and undetermined streams */
  input?: KeyedStreamInput;
  /** rocksdb-native: the incremental handle whose SST files hold the entries (opened when scanned) */
  rocksdb?: { handle: IncrementalHandle; operatorId: string; subtask: number; maxParallelism: number };
  /** canonical/heap/rocksdb-full/undetermined: the stream header; rocksdb-native: the meta data handle's header */
  header?: KeyedStateHeader;
  /** set when the header's states are listed but their entries cannot be read here: why */
  unreadable?: string;
  /** with `unreadable`: the error a scan throws for those states when it has no `unreadable` hook (located: file, offset); else one with the reason alone */
  unreadableError?: DecodeError;
  /** code 3/12: what in the bytes decided the layout */
  layoutEvidence?: string;
  /** changelog: the format of the materialized part that input/header/unreadable describe (absent without one) */
  materializedFormat?: KeyedStreamFormat;
  /**
   * changelog: the changes after the materialized snapshot and the states that only they name (not in
   * `header`); absent when there are none. With `replay`, the changes are applied (replay-changelog-entries.ts)
   * and `replay.outcomes` says per state how far; without, they are not applied here (`reason`).
   */
  changelog?: { reason: string; states: StateMetaInfo[]; replay?: ChangelogReplay };
  warnings: string[];
}

/** How a changelog subtask's changes are replayed, and the outcome per state (states without changes are absent: their materialized entries are the state). */
export interface ChangelogReplay {
  input: ChangelogReplayInput;
  outcomes: Map<string, ChangelogReplayOutcome>;
  /** a META record that names no state could not be read: the subtask's changelog is not read whole (any state's changes may be lost) */
  failure?: string;
}

/** replayed: every change applied; partial: applied, keys kept as bytes (why); unreadable: not replayed (why) */
export type ChangelogReplayOutcome = { kind: 'replayed' } | { kind: 'partial'; reason: string } | { kind: 'unreadable'; reason: string };

export interface SubtaskOperatorStream {
  input: OperatorStreamInput;
  header: OperatorStateHeader;
  warnings: string[];
}

/**
 * Locates and reads the managed keyed state header of a subtask: reads only the header bytes
 * (up to the first non-zero key-group offset; the whole meta data handle for RocksDB native). A
 * changelog handle (code 8/14) gives its materialized part's stream, plus the states that only its
 * changelog names. Returns undefined when the subtask has no managed keyed state.
 */
export async function readSubtaskKeyedStream(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: SubtaskState,
  registry: SnapshotRegistry,
): Promise<SubtaskKeyedStream | undefined> {
  const handle = subtask.managedKeyedState;
  if (!handle) return undefined;
  return withStreamPath([formatOperatorPathSegment(op.id), `subtask ${subtask.index}`, 'managed keyed state'], async () => {
    if (handle.kind !== 'changelog') return readKeyedHandleStream(opened, op, subtask.index, handle, registry);
    return readChangelogKeyedStream(opened, op, subtask.index, handle, registry);
  });
}

/** The stream of one key-groups or incremental handle. */
async function readKeyedHandleStream(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: number,
  handle: Exclude<KeyedStateHandle, { kind: 'changelog' }>,
  registry: SnapshotRegistry,
): Promise<SubtaskKeyedStream | undefined> {
  const context = { operatorId: op.id, subtask, role: 'managed keyed state' };
  if (handle.kind === 'incremental') {
    if (!handle.metaData) {
      const unreadable = `${ROCKSDB_NATIVE_UNREADABLE}; its meta data handle is absent, so its states cannot be listed`;
      return { format: 'rocksdb-native' as const, unreadable, warnings: [`subtask ${subtask}: RocksDB native snapshot without a meta data handle`] };
    }
    const resolved = opened.resolveStreamHandle(handle.metaData, { ...context, role: 'managed keyed state meta data' });
    const bytes = await resolved.source.read(0, resolved.source.size);
    const header = readKeyedStateHeader(new ByteReader(bytes, { file: resolved.file, baseOffset: resolved.baseOffset }), registry, {
      fence: resolved.baseOffset + bytes.length,
    });
    const rocksdb = { handle, operatorId: op.id, subtask, maxParallelism: op.maxParallelism };
    return { format: 'rocksdb-native' as const, header, rocksdb, warnings: [...resolved.warnings, ...header.warnings] };
  }
  if (!handle.delegate) return undefined;
  const resolved = opened.resolveStreamHandle(handle.delegate, context);
  const input: KeyedStreamInput = {
    operatorId: op.id,
    subtask,
    maxParallelism: op.maxParallelism,
    source: resolved.source,
    file: resolved.file,
    baseOffset: resolved.baseOffset,
    range: handle.range,
    offsets: handle.offsets,
  };
  const fence = computeKeyedHeaderFence(input);
  // code 3/12: the heap snapshot layout or the RocksDB full-snapshot layout, told apart by the bytes of
  // the first block, read with the header
  const probe = handle.code === 7 ? 0 : measureLayoutProbe(input);
  const bytes = await resolved.source.read(0, fence + probe);
  const header = readKeyedStateHeader(new ByteReader(bytes.subarray(0, fence), { file: resolved.file, baseOffset: resolved.baseOffset }), registry, {
    fence: resolved.baseOffset + fence,
  });
  const warnings = [...resolved.warnings, ...header.warnings];
  if (handle.code === 7) return { format: 'canonical' as const, input, header, warnings };
  try {
    const decided = detectKeyGroupsLayout(input, header, bytes.subarray(fence));
    return { format: decided.layout, input, header, layoutEvidence: decided.evidence, warnings };
  } catch (e) {
    if (!isDecodeError(e) || e.code !== 'unsupported-format') throw e;
    return { format: 'undetermined' as const, input, header, unreadable: e.message, unreadableError: e, warnings: [...warnings, e.message] };
  }
}

/**
 * A changelog handle: its materialized part (an ordinary keyed handle, read as such) and its changelog
 * part (state changes after that snapshot), which is not applied here: the stream's `changelog` says
 * so, and lists the states only the changelog names.
 */
async function readChangelogKeyedStream(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: number,
  handle: Extract<KeyedStateHandle, { kind: 'changelog' }>,
  registry: SnapshotRegistry,
): Promise<SubtaskKeyedStream> {
  const backend = handle.code === 8 || handle.code === 14;
  const materializedCount = backend ? (handle.materializedCount ?? 0) : 0;
  const materialized = handle.nested.slice(0, materializedCount);
  const changes = backend ? handle.nested.slice(materializedCount) : [handle];
  if (materialized.length > 1) {
    throw new DecodeError({
      code: 'unsupported-format',
      detail: `expected at most one materialized keyed handle in changelog handle code ${handle.code}, found ${materialized.length}`,
      path: [],
    });
  }
  const nested = materialized[0];
  const nestedChangelog = `a changelog handle (code ${nested?.code}) as the materialized part of another is not read here`;
  const stream: SubtaskKeyedStream | undefined =
    nested === undefined
      ? undefined
      : nested.kind === 'changelog'
        ? {
            format: 'changelog',
            unreadable: nestedChangelog,
            unreadableError: new DecodeError({ code: 'unsupported-format', detail: nestedChangelog, file: opened.metadataFile }),
            warnings: [],
          }
        : await readKeyedHandleStream(opened, op, subtask, nested, registry);
  const part = await readChangelogPart(opened, changes, registry);
  const pending = part.dataChanges + part.changeFiles;
  const what = [
    part.dataChanges > 0 ? `${part.dataChanges} state change${part.dataChanges === 1 ? '' : 's'}` : '',
    part.changeFiles > 0 ? `${part.changeFiles} change file${part.changeFiles === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const after = nested === undefined ? 'with no materialized snapshot' : 'after the materialized snapshot';
  const reason =
    pending > 0
      ? `changelog state backend: subtask ${subtask}'s ${what} recorded ${after} ${pending === 1 ? 'is' : 'are'} not applied here`
      : `changelog state backend: named only by subtask ${subtask}'s changelog, which records no change ${after}`;
  const named = new Set(stream?.header?.states.map((s) => s.name) ?? []);
  const only = part.states.filter((s) => !named.has(s.name));
  const replay = await planChangelogReplay(opened, op, subtask, handle, stream, part);
  const warnings = [...(stream?.warnings ?? []), ...part.warnings];
  if (part.changeFiles > 0 && stream?.header === undefined)
    warnings.push(`subtask ${subtask}: the states named only in changelog files are not listed (change files are not opened)`);
  return {
    ...(stream ?? {}),
    format: 'changelog',
    ...(stream ? { materializedFormat: stream.format } : {}),
    ...(pending > 0 || only.length > 0 ? { changelog: { reason, states: only, ...(replay ? { replay } : {}) } } : {}),
    ...(stream === undefined && only.length === 0 && pending > 0
      ? { unreadable: `${reason}, and no materialized snapshot or META record names its states` }
      : {}),
    warnings,
  };
}

const TIMER_SNAPSHOT = 'org.apache.flink.streaming.api.operators.TimerSerializerSnapshot';
const REPLAYED_LAYOUTS: readonly KeyedStreamFormat[] = ['canonical', 'heap', 'rocksdb-full', 'rocksdb-native'];

/**
 * The replay of a changelog subtask whose changes are all inline in `_metadata` and whose materialized part
 * (if any) is readable: undefined otherwise (change files are not opened; then nothing is applied). The
 * key serializer comes from the materialized header, else from a timer queue's TimerSerializer snapshot
 * (the timer service serializes timers with the keyed backend's key serializer).
 */
async function planChangelogReplay(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: number,
  handle: Extract<KeyedStateHandle, { kind: 'changelog' }>,
  stream: SubtaskKeyedStream | undefined,
  part: ChangelogPart,
): Promise<ChangelogReplay | undefined> {
  if (part.changeFiles > 0 || part.foreignHandles > 0) return undefined;
  if (stream && (stream.unreadable !== undefined || !REPLAYED_LAYOUTS.includes(stream.format) || stream.header === undefined)) return undefined;
  const header = stream?.header;
  let key: ChangelogKeySource | undefined = header ? { serializer: header.keySerializer, source: "the materialized snapshot's header" } : undefined;
  if (!key) {
    const timers = part.states.find(
      (s) => s.kind === 'PRIORITY_QUEUE' && s.serializers.VALUE_SERIALIZER?.className === TIMER_SNAPSHOT && s.serializers.VALUE_SERIALIZER.nested[0],
    );
    if (timers) key = { serializer: timers.serializers.VALUE_SERIALIZER!.nested[0]!, source: `the TimerSerializer snapshot of timer queue ${timers.name}` };
  }
  const input: ChangelogReplayInput = {
    operatorId: op.id,
    subtask,
    maxParallelism: op.maxParallelism,
    range: handle.range,
    records: part.records,
    metadataOperation: part.metadataOperation,
    stateNames: [...new Set([...(header?.states ?? []).map((s) => s.name), ...part.states.map((s) => s.name)])],
    ...(key ? { key } : {}),
    source: opened.files.metadata,
    file: opened.metadataFile,
  };
  const outcomes = new Map<string, ChangelogReplayOutcome>();
  for (const [name, c] of await decodeChangelogChanges(input, 'skip')) {
    outcomes.set(
      name,
      c.kind === 'unreadable'
        ? { kind: 'unreadable', reason: c.reason }
        : c.rawKeys !== undefined
          ? { kind: 'partial', reason: c.rawKeys }
          : { kind: 'replayed' },
    );
  }
  const lost = part.records.find((r) => r.kind === 'bad-meta' && r.name === undefined);
  return { input, outcomes, ...(lost?.kind === 'bad-meta' ? { failure: `subtask ${subtask}: a state's ${lost.reason.replace(/^its /, '')}` } : {}) };
}

/** Reads the managed operator state header of a subtask (up to the handle's smallest offset). */
export async function readSubtaskOperatorStream(
  opened: OpenedSavepoint,
  op: OperatorState,
  subtask: SubtaskState,
  registry: SnapshotRegistry,
): Promise<SubtaskOperatorStream | undefined> {
  const handle = subtask.managedOperatorState;
  if (!handle?.delegate) return undefined;
  const delegate = handle.delegate;
  return withStreamPath([formatOperatorPathSegment(op.id), `subtask ${subtask.index}`, 'managed operator state'], async () => {
    const resolved = opened.resolveStreamHandle(delegate, { operatorId: op.id, subtask: subtask.index, role: 'managed operator state' });
    const input: OperatorStreamInput = {
      operatorId: op.id,
      subtask: subtask.index,
      source: resolved.source,
      file: resolved.file,
      baseOffset: resolved.baseOffset,
      states: handle.states,
    };
    const fence = computeOperatorHeaderFence(input);
    const bytes = await resolved.source.read(0, fence);
    const header = readOperatorStateHeader(new ByteReader(bytes, { file: resolved.file, baseOffset: resolved.baseOffset }), registry, {
      fence: resolved.baseOffset + fence,
    });
    return { input, header, warnings: [...resolved.warnings, ...header.warnings] };
  });
}

/**
 * Prefixes the stream's path (operator / subtask / role) to a DecodeError from inside, unless the error
 * already starts with it: a missing state file names that path itself (open-savepoint), and would otherwise
 * read `operator … / subtask 0 / managed operator state / operator … / subtask 0 / managed operator state`.
 */
async function withStreamPath<T>(segments: readonly string[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isDecodeError(e) && segments.every((s, i) => e.path[i] === s)) throw e;
    return withDecodePathAsync(segments, () => Promise.reject(e));
  }
}
