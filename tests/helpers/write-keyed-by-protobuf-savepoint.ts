/**
 * A minimal canonical savepoint whose one keyed operator is keyed by a Protobuf message: its
 * ValueState `v` has a Protobuf key serializer (root p.Key, a.proto) and a Protobuf value serializer
 * (root p.Val, b.proto). Each snapshot embeds its own root's files, so the state holds two saved
 * schemas. No entries (one empty key group). Operator id: 32 × 'a'.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { ByteWriter } from '../../src/core/io';
import { writeOneKeyedSavepoint } from './write-one-keyed-savepoint';
import { DEFAULT_PROTOBUF_SETTINGS, normalizeSnapshotDescriptors, PROTOBUF_SNAPSHOT_CLASS, writeProtobufSnapshotParts } from '../../src/core/protobuf';
import { valueState, writeKeyedHeader, type SnapshotSpec } from './write-test-snapshots';

const SET = toBinary(
  FileDescriptorSetSchema,
  create(FileDescriptorSetSchema, {
    file: [
      { name: 'a.proto', package: 'p', syntax: 'proto3', messageType: [{ name: 'Key', field: [{ name: 'id', number: 1, label: 1, type: 9 }] }] },
      { name: 'b.proto', package: 'p', syntax: 'proto3', messageType: [{ name: 'Val', field: [{ name: 'n', number: 1, label: 1, type: 3 }] }] },
    ],
  }),
);

/** The Protobuf snapshot as a nested snapshot: the serializer's writer puts class name and version first, which `SnapshotSpec` writes itself. */
function protobufSnapshot(root: string, javaClass: string): SnapshotSpec {
  const whole = new ByteWriter();
  writeProtobufSnapshotParts(whole, javaClass, root, DEFAULT_PROTOBUF_SETTINGS, normalizeSnapshotDescriptors(SET, root));
  const envelope = 2 + PROTOBUF_SNAPSHOT_CLASS.length + 4; // writeUTF of the (ASCII) class name, i32 version
  const content = whole.finish().subarray(envelope);
  return { raw: PROTOBUF_SNAPSHOT_CLASS, version: 1, content: (w) => w.bytes(content) };
}

export function writeKeyedByProtobufSavepoint(dir: string): void {
  const header = writeKeyedHeader(new ByteWriter(), protobufSnapshot('p.Key', 'p.A$Key'), [valueState('v', protobufSnapshot('p.Val', 'p.B$Val'))]).finish();
  const state = new ByteWriter().bytes(header).finish();
  // key group 0 has no data (offset 0): only the header is read
  writeOneKeyedSavepoint(dir, { operatorId: 'a'.repeat(32), maxParallelism: 128, keyGroupOffset: 0, state });
}
