/**
 * Reads the body of a changelog keyed handle: 8/14 `ChangelogStateBackendHandle`
 * (materialized + non-materialized nested keyed handles), 9 `InMemoryChangelogStateHandle`
 * (inline changes), 10/13 `ChangelogStateHandleStreamImpl` (change files).
 */
import type { ByteReader } from '../../io';
import { readHandleLong, readKeyGroupRange } from './read-handle-primitives';
import { readStreamHandle } from './read-stream-handle';
import type { KeyedStateHandle, StreamHandle } from './metadata-types';

type ReadKeyed = (r: ByteReader, depth: number) => KeyedStateHandle | null;

export function readChangelogStateHandle(r: ByteReader, code: 8 | 9 | 10 | 13 | 14, depth: number, readKeyed: ReadKeyed): KeyedStateHandle {
  const range = readKeyGroupRange(r);
  if (code === 8 || code === 14) return readBackendHandle(r, code, range, depth, readKeyed);
  if (code === 9) return readInMemoryHandle(r, range);
  return readFileIncrementHandle(r, code, range, depth);
}

function readBackendHandle(r: ByteReader, code: 8 | 14, range: { start: number; end: number }, depth: number, readKeyed: ReadKeyed): KeyedStateHandle {
  const checkpointedSize = r.readI64('changelog checkpointed size');
  const nested: KeyedStateHandle[] = [];
  const m = r.readCount('materialized keyed handles', 1);
  for (let i = 0; i < m; i++) {
    const h = readKeyed(r, depth + 1);
    if (h !== null) nested.push(h); // Flink skips null materialized handles (with a warning)
  }
  const materializedCount = nested.length;
  const d = r.readCount('non-materialized keyed handles', 1);
  for (let i = 0; i < d; i++) {
    const h = readKeyed(r, depth + 1);
    if (h !== null) nested.push(h);
  }
  const materializationId = r.readI64('changelog materialization id');
  const checkpointId = code === 14 ? r.readI64('changelog checkpoint id') : materializationId;
  const handleId = r.readUtf('state handle id');
  return {
    kind: 'changelog',
    code,
    range,
    description: `changelog backend handle: ${materializedCount} materialized, ${nested.length - materializedCount} non-materialized`,
    nested,
    checkpointedSize,
    materializedCount,
    materializationId,
    checkpointId,
    handleId,
  };
}

function readInMemoryHandle(r: ByteReader, range: { start: number; end: number }): KeyedStateHandle {
  const fromSequence = r.readI64('changelog from sequence number');
  const toSequence = r.readI64('changelog to sequence number');
  const n = r.readCount('in-memory changes', 8);
  const changes: { keyGroup: number; offset: number; length: number }[] = [];
  for (let i = 0; i < n; i++) {
    const keyGroup = r.readI32(`key group of change #${i}`);
    const lengthAt = r.position;
    const length = r.readI32(`length of change #${i}`);
    if (length < 0) throw r.error('invalid-value', `expected a non-negative length of change #${i}, found ${length}`, lengthAt);
    const offset = r.absolutePosition;
    r.skip(length, `bytes of change #${i}`);
    changes.push({ keyGroup, offset, length });
  }
  const handleId = r.readUtf('state handle id');
  return { kind: 'changelog', code: 9, range, description: `in-memory changelog: ${n} changes`, nested: [], fromSequence, toSequence, changes, handleId };
}

function readFileIncrementHandle(r: ByteReader, code: 10 | 13, range: { start: number; end: number }, depth: number): KeyedStateHandle {
  const n = r.readCount('changelog stream handles', 9);
  const files: { offset: number; handle: StreamHandle | null }[] = [];
  for (let i = 0; i < n; i++) {
    const offset = readHandleLong(r, `offset of changelog stream #${i}`);
    files.push({ offset, handle: readStreamHandle(r, depth + 1) });
  }
  const stateSize = r.readI64('changelog state size');
  const checkpointedSize = r.readI64('changelog checkpointed size');
  const handleId = r.readUtf('state handle id');
  const storageIdentifier = code === 13 ? r.readUtf('changelog storage identifier') : 'filesystem';
  return {
    kind: 'changelog',
    code,
    range,
    description: `changelog files: ${n} streams in ${storageIdentifier}`,
    nested: [],
    files,
    stateSize,
    checkpointedSize,
    handleId,
    storageIdentifier,
  };
}
