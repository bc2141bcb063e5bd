/**
 * Writes `_metadata` state handles, the exact inverse of the read-*-handle
 * readers. Used to build byte-exact test inputs and synthetic `_metadata` files.
 */
import type { ByteWriter } from '../../io';
import type { ChannelStateHandle, KeyedStateHandle, OperatorStateHandle, StreamHandle } from './metadata-types';

const MODE_ORDINAL = { SPLIT_DISTRIBUTE: 0, UNION: 1, BROADCAST: 2 } as const;

export function writeStreamHandle(w: ByteWriter, h: StreamHandle | null): void {
  if (h === null) {
    w.u8(0);
    return;
  }
  switch (h.kind) {
    case 'inline':
      w.u8(1).utf(h.name).i32(h.data.length).bytes(h.data);
      return;
    case 'file':
      w.u8(2).i64(h.size).utf(h.path);
      return;
    case 'legacy-key-groups':
      w.u8(3)
        .i32(h.range.start)
        .i32(h.range.end - h.range.start + 1);
      for (const o of h.offsets) w.i64(o);
      writeStreamHandle(w, h.delegate);
      return;
    case 'relative-file':
      w.u8(6).utf(h.relativePath).i64(h.size);
      return;
    case 'segment-file':
      w.u8(15)
        .i64(h.start)
        .i64(h.size)
        .i32(h.scope === 'EXCLUSIVE' ? 0 : 1)
        .utf(h.physicalPath)
        .utf(h.logicalFileId);
      return;
    case 'empty-segment':
      w.u8(16);
  }
}

export function writeKeyedStateHandle(w: ByteWriter, h: KeyedStateHandle | null): void {
  if (h === null) {
    w.u8(0);
    return;
  }
  w.u8(h.code);
  const count = h.range.end - h.range.start + 1;
  if (h.kind === 'key-groups') {
    w.i32(h.range.start).i32(count);
    for (const o of h.offsets) w.i64(o);
    writeStreamHandle(w, h.delegate);
    if (h.code === 12) w.utf(h.handleId ?? '');
    return;
  }
  if (h.kind === 'incremental') {
    w.i64(h.checkpointId).utf(h.backendId).i32(h.range.start).i32(count);
    if (h.code === 11) w.i64(h.checkpointedSize ?? 0n);
    writeStreamHandle(w, h.metaData);
    for (const list of [h.sharedFiles, h.privateFiles]) {
      w.i32(list.length);
      for (const f of list) {
        w.utf(f.localPath);
        writeStreamHandle(w, f.handle);
      }
    }
    if (h.code === 11) w.utf(h.handleId ?? '');
    return;
  }
  w.i32(h.range.start).i32(count);
  if (h.code === 8 || h.code === 14) {
    const m = h.materializedCount ?? 0;
    w.i64(h.checkpointedSize ?? 0n).i32(m);
    for (const n of h.nested.slice(0, m)) writeKeyedStateHandle(w, n);
    w.i32(h.nested.length - m);
    for (const n of h.nested.slice(m)) writeKeyedStateHandle(w, n);
    w.i64(h.materializationId ?? 0n);
    if (h.code === 14) w.i64(h.checkpointId ?? 0n);
    w.utf(h.handleId ?? '');
  } else if (h.code === 9) {
    if (!h.changeBytes) throw new Error('writeKeyedStateHandle: code 9 needs the change bytes (changeBytes); or use writeInMemoryChangelogHandle');
    w.i64(h.fromSequence ?? 0n)
      .i64(h.toSequence ?? 0n)
      .i32(h.changeBytes.length);
    for (const c of h.changeBytes) w.i32(c.keyGroup).i32(c.bytes.length).bytes(c.bytes);
    w.utf(h.handleId ?? '');
  } else {
    const files = h.files ?? [];
    w.i32(files.length);
    for (const f of files) {
      w.i64(f.offset);
      writeStreamHandle(w, f.handle);
    }
    w.i64(h.stateSize ?? 0n)
      .i64(h.checkpointedSize ?? 0n)
      .utf(h.handleId ?? '');
    if (h.code === 13) w.utf(h.storageIdentifier ?? 'filesystem');
  }
}

/** Code 9 with explicit change bytes. */
export function writeInMemoryChangelogHandle(
  w: ByteWriter,
  range: { start: number; end: number },
  from: bigint,
  to: bigint,
  changes: { keyGroup: number; bytes: Uint8Array }[],
  handleId: string,
): void {
  w.u8(9)
    .i32(range.start)
    .i32(range.end - range.start + 1)
    .i64(from)
    .i64(to)
    .i32(changes.length);
  for (const c of changes) w.i32(c.keyGroup).i32(c.bytes.length).bytes(c.bytes);
  w.utf(handleId);
}

export function writeOperatorStateHandle(w: ByteWriter, h: OperatorStateHandle | null): void {
  if (h === null) {
    w.u8(0);
    return;
  }
  w.u8(h.code).i32(h.states.length);
  for (const s of h.states) {
    w.utf(s.name).u8(MODE_ORDINAL[s.mode]).i32(s.offsets.length);
    for (const o of s.offsets) w.i64(o);
  }
  if (h.code === 17)
    w.utf(h.taskOwnedDirectory ?? '')
      .utf(h.sharedDirectory ?? '')
      .bool(h.emptyPlaceholder ?? false);
  writeStreamHandle(w, h.delegate);
}

export function writeChannelStateHandle(w: ByteWriter, h: ChannelStateHandle, metadataVersion: number): void {
  const input = h.kind === 'input-channel' || h.kind === 'merged-input-channel';
  if (!('info' in h)) {
    w.u8(input ? 3 : 4)
      .i32(h.subtaskIndex)
      .i64(h.stateSize);
    writeStreamHandle(w, h.delegate);
    w.i32(h.serializedOffsetsLength).bytes(new Uint8Array(h.serializedOffsetsLength));
    return;
  }
  if (metadataVersion >= 6) w.u8(input ? 1 : 2);
  w.i32(h.subtaskIndex).i32(h.info[0]).i32(h.info[1]).i32(h.offsets.length);
  for (const o of h.offsets) w.i64(o);
  w.i64(h.stateSize);
  writeStreamHandle(w, h.delegate);
}
