import { ByteReader, isDecodeError, withDecodePathAsync } from '../../io';
import { formatOperatorPathSegment } from '../metadata/read-checkpoint-metadata-operator';
import type { KeyedStateHeader, OperatorStateHeader } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { computeKeyedHeaderFence } from '../keyed/read-canonical-keyed-entries';
import { detectKeyGroupsLayout, measureLayoutProbe } from '../keyed/detect-key-groups-layout';
import type { KeyedStreamInput } from '../keyed/keyed-stream-types';
import { readKeyedStateHeader } from './read-keyed-state-header';
import { readOperatorStateHeader } from './read-operator-state-header';
import { computeOperatorHeaderFence, type OperatorStreamInput } from '../operator/read-operator-state-entries';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { OperatorState, SubtaskState } from '../metadata/metadata-types';

/** The exact text shown for states of RocksDB native (incremental) snapshots. */
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
  /** canonical/heap/rocksdb-full/undetermined: the stream header; rocksdb-native: the meta data handle's header */
  header?: KeyedStateHeader;
  /** set when the header's states are listed but their entries cannot be read here: why */
  unreadable?: string;
  /** code 3/12: what in the bytes decided the layout */
  layoutEvidence?: string;
  warnings: string[];
}

export interface SubtaskOperatorStream {
  input: OperatorStreamInput;
  header: OperatorStateHeader;
  warnings: string[];
}

/**
 * Locates and reads the managed keyed state header of a subtask: reads only the header bytes
 * (up to the first non-zero key-group offset; the whole meta data handle for RocksDB native).
 * Returns undefined when the subtask has no managed keyed state.
 */
export async function readSubtaskKeyedStream(opened: OpenedSavepoint, op: OperatorState, subtask: SubtaskState, registry: SnapshotRegistry): Promise<SubtaskKeyedStream | undefined> {
  const handle = subtask.managedKeyedState;
  if (!handle) return undefined;
  const context = { operatorId: op.id, subtask: subtask.index, role: 'managed keyed state' };
  return withDecodePathAsync([formatOperatorPathSegment(op.id), `subtask ${subtask.index}`, 'managed keyed state'], async () => {
    if (handle.kind === 'changelog') {
      return { format: 'changelog' as const, warnings: [`subtask ${subtask.index}: changelog state handle (code ${handle.code}) is not read here`] };
    }
    if (handle.kind === 'incremental') {
      if (!handle.metaData) return { format: 'rocksdb-native' as const, warnings: [`subtask ${subtask.index}: RocksDB native snapshot without a meta data handle`] };
      const resolved = opened.resolveStreamHandle(handle.metaData, { ...context, role: 'managed keyed state meta data' });
      const bytes = await resolved.source.read(0, resolved.source.size);
      const header = readKeyedStateHeader(new ByteReader(bytes, { file: resolved.file, baseOffset: resolved.baseOffset }), registry, { fence: resolved.baseOffset + bytes.length });
      return { format: 'rocksdb-native' as const, header, unreadable: ROCKSDB_NATIVE_UNREADABLE, warnings: [...resolved.warnings, ...header.warnings] };
    }
    if (!handle.delegate) return undefined;
    const resolved = opened.resolveStreamHandle(handle.delegate, context);
    const input: KeyedStreamInput = {
      operatorId: op.id,
      subtask: subtask.index,
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
    const header = readKeyedStateHeader(new ByteReader(bytes.subarray(0, fence), { file: resolved.file, baseOffset: resolved.baseOffset }), registry, { fence: resolved.baseOffset + fence });
    const warnings = [...resolved.warnings, ...header.warnings];
    if (handle.code === 7) return { format: 'canonical' as const, input, header, warnings };
    try {
      const decided = detectKeyGroupsLayout(input, header, bytes.subarray(fence));
      return { format: decided.layout, input, header, layoutEvidence: decided.evidence, warnings };
    } catch (e) {
      if (!isDecodeError(e) || e.code !== 'unsupported-format') throw e;
      return { format: 'undetermined' as const, input, header, unreadable: e.message, warnings: [...warnings, e.message] };
    }
  });
}

/** Reads the managed operator state header of a subtask (up to the handle's smallest offset). */
export async function readSubtaskOperatorStream(opened: OpenedSavepoint, op: OperatorState, subtask: SubtaskState, registry: SnapshotRegistry): Promise<SubtaskOperatorStream | undefined> {
  const handle = subtask.managedOperatorState;
  if (!handle?.delegate) return undefined;
  const delegate = handle.delegate;
  return withDecodePathAsync([formatOperatorPathSegment(op.id), `subtask ${subtask.index}`, 'managed operator state'], async () => {
    const resolved = opened.resolveStreamHandle(delegate, { operatorId: op.id, subtask: subtask.index, role: 'managed operator state' });
    const input: OperatorStreamInput = { operatorId: op.id, subtask: subtask.index, source: resolved.source, file: resolved.file, baseOffset: resolved.baseOffset, states: handle.states };
    const fence = computeOperatorHeaderFence(input);
    const bytes = await resolved.source.read(0, fence);
    const header = readOperatorStateHeader(new ByteReader(bytes, { file: resolved.file, baseOffset: resolved.baseOffset }), registry, { fence: resolved.baseOffset + fence });
    return { input, header, warnings: [...resolved.warnings, ...header.warnings] };
  });
}
