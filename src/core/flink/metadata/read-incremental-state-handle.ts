/**
 * Reads the body of an incremental keyed handle, codes 5 (old) and 11 (`IncrementalRemoteKeyedStateHandle`):
 * RocksDB/ForSt SST file sets with a meta-data stream handle.
 */
import type { ByteReader } from '../../io';
import { readKeyGroupRange } from './read-handle-primitives';
import { readStreamHandle } from './read-stream-handle';
import type { KeyedStateHandle, StreamHandle } from './metadata-types';

type HandleAndLocalPath = { localPath: string; handle: StreamHandle | null };

export function readIncrementalStateHandle(r: ByteReader, code: 5 | 11, depth: number): KeyedStateHandle {
  const checkpointId = r.readI64('incremental handle checkpoint id');
  const backendId = r.readUtf('incremental handle backend id');
  const range = readKeyGroupRange(r);
  const checkpointedSize = code === 11 ? r.readI64('incremental handle checkpointed size') : undefined;
  const metaData = readStreamHandle(r, depth + 1);
  const sharedFiles = readHandleAndLocalPathList(r, 'shared files', depth);
  const privateFiles = readHandleAndLocalPathList(r, 'private files', depth);
  const base = { kind: 'incremental' as const, code, checkpointId, backendId, range, metaData, sharedFiles, privateFiles };
  const withSize = checkpointedSize === undefined ? base : { ...base, checkpointedSize };
  if (code === 5) return withSize;
  return { ...withSize, handleId: r.readUtf('state handle id') };
}

function readHandleAndLocalPathList(r: ByteReader, what: string, depth: number): HandleAndLocalPath[] {
  // each item: utf local path (>= 2 bytes) + stream handle code (>= 1 byte)
  const n = r.readCount(`incremental handle ${what}`, 3);
  const out: HandleAndLocalPath[] = [];
  for (let i = 0; i < n; i++) {
    const localPath = r.readUtf(`local path of ${what} #${i}`);
    out.push({ localPath, handle: readStreamHandle(r, depth + 1) });
  }
  return out;
}
