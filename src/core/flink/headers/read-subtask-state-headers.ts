import { ByteReader, withDecodePathAsync } from '../../io';
import { formatOperatorPathSegment } from '../metadata/read-checkpoint-metadata-operator';
import type { KeyedStateHeader, OperatorStateHeader } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { computeKeyedHeaderFence } from '../keyed/read-canonical-keyed-entries';
import type { KeyedStreamInput } from '../keyed/keyed-stream-types';
import { readKeyedStateHeader } from './read-keyed-state-header';
import { readOperatorStateHeader } from './read-operator-state-header';
import { computeOperatorHeaderFence, type OperatorStreamInput } from '../operator/read-operator-state-entries';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { OperatorState, SubtaskState } from '../metadata/metadata-types';

/** The exact text shown for states of RocksDB native (incremental) snapshots. */
export const ROCKSDB_NATIVE_UNREADABLE = 'RocksDB native snapshot: SST files are not readable here; take a canonical savepoint';

export type KeyedStreamFormat = 'canonical' | 'heap' | 'rocksdb-native' | 'changelog';

export interface SubtaskKeyedStream {
  format: KeyedStreamFormat;
  /** present for canonical and heap streams */
  input?: KeyedStreamInput;
  /** canonical/heap: the stream header; rocksdb-native: the meta data handle's header */
  header?: KeyedStateHeader;
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
      return { format: 'rocksdb-native' as const, header, warnings: [...resolved.warnings, ...header.warnings] };
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
    const bytes = await resolved.source.read(0, fence);
    const header = readKeyedStateHeader(new ByteReader(bytes, { file: resolved.file, baseOffset: resolved.baseOffset }), registry, { fence: resolved.baseOffset + fence });
    return { format: handle.code === 7 ? ('canonical' as const) : ('heap' as const), input, header, warnings: [...resolved.warnings, ...header.warnings] };
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
