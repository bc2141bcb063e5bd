/**
 * A copy of the fixture savepoint (flink-2.3/hashmap/canonical) whose first `processed-events` value of
 * subtask 0 (operator list state of `int-keyed`) carries, after its own fields, an unknown
 * length-delimited field 200 of 200,000 bytes, 1,500 unknown varint fields 300, and a second
 * `bytes blob = 12` of `blobBytes` bytes: over every cap of a value view (VALUE_VIEW_CAPS).
 * writeSavepointWithPatchedValue appends any bytes to that value.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';
import { ByteWriter } from '../../src/core/io';

export function writeSavepointWithHugeValue(savepoint: string, to: string, blobBytes = 800_000): string {
  const extra = new ByteWriter();
  const varint = (v: number) => {
    for (; v >= 0x80; v >>>= 7) extra.u8((v & 0x7f) | 0x80);
    extra.u8(v);
  };
  varint((200 << 3) | 2);
  varint(200_000);
  extra.bytes(new Uint8Array(200_000).fill(0x5a));
  for (let i = 0; i < 1500; i++) {
    varint(300 << 3);
    varint(i);
  }
  // a second `bytes blob = 12` (800,000 bytes by default), which wins: its base64 makes the value's JSON over 1 MiB
  varint((12 << 3) | 2);
  varint(blobBytes);
  extra.bytes(new Uint8Array(blobBytes).fill(0x11));
  return writeSavepointWithPatchedValue(savepoint, to, extra.finish());
}

/**
 * A copy of the fixture savepoint whose first `processed-events` value of subtask 0 has `added` appended
 * to its Protobuf payload (its frame length, the later offsets and the file's size adjusted): bytes that
 * make the value large, or a field cut short that its decoder refuses.
 */
export function writeSavepointWithPatchedValue(savepoint: string, to: string, added: Uint8Array): string {
  cpSync(savepoint, to, { recursive: true });
  const metadata = readCheckpointMetadata(new Uint8Array(readFileSync(path.join(to, '_metadata'))), '_metadata');
  const trailer = new Uint8Array(readFileSync(path.join(to, '_metadata'))).subarray(metadata.properties!.trailerOffset!);
  const op = metadata.operators.find((o) => o.id === '6d821971c3bfd7ae2c972e89d7414f7c')!;
  const handle = op.subtasks.find((s) => s.index === 0)!.managedOperatorState!;
  const data = handle.delegate!;
  if (data.kind !== 'relative-file') throw new Error(`expected a relative file handle, found ${data.kind}`);
  const file = path.join(to, data.relativePath);
  const bytes = new Uint8Array(readFileSync(file));
  const entry = handle.states.find((e) => e.name === 'processed-events')!;
  const at = entry.offsets[0]!;
  const frameLength = new DataView(bytes.buffer, bytes.byteOffset).getInt32(at);
  const patched = new ByteWriter()
    .bytes(bytes.subarray(0, at))
    .i32(frameLength + added.length)
    .bytes(bytes.subarray(at + 4, at + 4 + frameLength))
    .bytes(added)
    .bytes(bytes.subarray(at + 4 + frameLength))
    .finish();
  writeFileSync(file, patched);
  for (const e of handle.states) e.offsets = e.offsets.map((o) => (o > at ? o + added.length : o));
  (data as { size: number }).size = patched.length;
  const body = writeCheckpointMetadata(metadata);
  writeFileSync(path.join(to, '_metadata'), Buffer.concat([body, trailer]));
  return to;
}
