/**
 * The snapshot reader remembers normalized schemas by (descriptor SHA-256, root): a second read of the
 * same snapshot bytes shares the schema, a failing snapshot fails at every read with the same error
 * (failures are never remembered), and the cache is bounded (8 schemas and 16 MiB of descriptor bytes,
 * least recently used dropped first).
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FileDescriptorSetSchema, FileOptionsSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError } from '../../src/core/io';
import { createSnapshotRegistry } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import {
  computeSha256,
  getProtobufSnapshotContent,
  PROTOBUF_SNAPSHOT_CLASS,
  registerProtobufSnapshotReaders,
  type ProtobufSnapshotContent,
} from '../../src/core/protobuf';

const registry = createSnapshotRegistry();
registerProtobufSnapshotReaders(registry);

/** One proto3 file `cache<tag>.proto` in package `cache` with messages M0..M9 (no fields), optionally padded by an unknown file option of `padding` bytes. */
function descriptorSet(tag: string, padding = 0): Uint8Array {
  const messageType = Array.from({ length: 10 }, (_, i) => ({ name: `M${i}` }));
  const set = create(FileDescriptorSetSchema, { file: [{ name: `cache${tag}.proto`, package: 'cache', syntax: 'proto3', messageType }] });
  if (padding > 0) {
    const options = create(FileOptionsSchema);
    options.$unknown = [{ no: 50000, wireType: WireType.LengthDelimited, data: encodeLengthDelimited(new Uint8Array(padding).fill(7)) }];
    set.file[0]!.options = options;
  }
  return toBinary(FileDescriptorSetSchema, set);
}

function encodeLengthDelimited(bytes: Uint8Array): Uint8Array {
  return new BinaryWriter().bytes(bytes).finish();
}

function snapshotBytes(descriptors: Uint8Array, root: string): Uint8Array {
  return new ByteWriter()
    .utf(PROTOBUF_SNAPSHOT_CLASS)
    .i32(1)
    .i32(1)
    .i32(1)
    .utf(`cache.Outer$${root}`)
    .utf(root)
    .u8(0)
    .i32(67108864)
    .i32(100)
    .i32(descriptors.length)
    .bytes(descriptors)
    .bytes(computeSha256(descriptors))
    .finish();
}

function read(bytes: Uint8Array): ProtobufSnapshotContent {
  const content = getProtobufSnapshotContent(readNestedSerializerSnapshot(new ByteReader(bytes, { file: 'state' }), registry));
  if (!content) throw new Error('expected a Protobuf snapshot');
  return content;
}

function readError(bytes: Uint8Array): { message: string; offset: number | undefined; code: string } {
  try {
    read(bytes);
  } catch (e) {
    if (isDecodeError(e)) return { message: e.message, offset: e.offset, code: e.code };
    throw e;
  }
  throw new Error('expected a DecodeError');
}

describe('normalized snapshot schemas remembered by descriptor SHA-256 and root', () => {
  it('two reads of the same snapshot share one schema; another root or other bytes get their own', () => {
    const set = descriptorSet('a');
    const first = read(snapshotBytes(set, 'cache.M0'));
    const second = read(snapshotBytes(set, 'cache.M0'));
    expect(second.schema).toBe(first.schema);
    expect(second.descriptorBytes).not.toBe(first.descriptorBytes);
    expect(first.schema.root.typeName).toBe('cache.M0');
    const otherRoot = read(snapshotBytes(set, 'cache.M1'));
    expect(otherRoot.schema).not.toBe(first.schema);
    expect(otherRoot.schema.root.typeName).toBe('cache.M1');
    const otherBytes = read(snapshotBytes(descriptorSet('b'), 'cache.M0'));
    expect(otherBytes.schema).not.toBe(first.schema);
    expect(otherBytes.schema.fileNames).toEqual(['cacheb.proto']);
  });

  it('a failing snapshot fails at every read with the same message and offset, also after the same bytes succeeded with another root', () => {
    const set = descriptorSet('c');
    const missing = snapshotBytes(set, 'cache.Missing');
    const before = readError(missing);
    expect(before.message).toContain('Cannot read Protobuf snapshot: Missing root message: cache.Missing');
    read(snapshotBytes(set, 'cache.M0'));
    expect(readError(missing)).toEqual(before);
    expect(readError(missing)).toEqual(before);
  });

  it('keeps at most 8 schemas, dropping the least recently used', () => {
    const set = descriptorSet('d');
    const first = read(snapshotBytes(set, 'cache.M0')).schema;
    for (let i = 1; i <= 7; i++) read(snapshotBytes(set, `cache.M${i}`));
    expect(read(snapshotBytes(set, 'cache.M0')).schema).toBe(first); // 8 remembered: still there, now most recent
    read(snapshotBytes(set, 'cache.M8')); // drops M1, the least recently used
    expect(read(snapshotBytes(set, 'cache.M0')).schema).toBe(first);
    const m1 = read(snapshotBytes(set, 'cache.M1')).schema; // normalized again, drops M2
    for (let i = 3; i <= 9; i++) read(snapshotBytes(set, `cache.M${i}`)); // 7 more: M0 is now the oldest and is dropped at the last
    expect(read(snapshotBytes(set, 'cache.M1')).schema).toBe(m1);
    const again = read(snapshotBytes(set, 'cache.M0')).schema;
    expect(again).not.toBe(first);
    expect(again.root.typeName).toBe('cache.M0');
  });

  it('keeps at most 16 MiB of descriptor bytes: a second 9 MiB set drops the first, a 17 MiB set is never remembered', () => {
    const a = descriptorSet('f', 9 * 1024 * 1024);
    const b = descriptorSet('g', 9 * 1024 * 1024);
    expect(a.length).toBeGreaterThan(9 * 1024 * 1024);
    const first = read(snapshotBytes(a, 'cache.M0')).schema;
    expect(read(snapshotBytes(a, 'cache.M0')).schema).toBe(first);
    read(snapshotBytes(b, 'cache.M0'));
    const again = read(snapshotBytes(a, 'cache.M0')).schema;
    expect(again).not.toBe(first);
    expect(again.fileNames).toEqual(['cachef.proto']);
    const large = snapshotBytes(descriptorSet('h', 17 * 1024 * 1024), 'cache.M0');
    expect(read(large).schema).not.toBe(read(large).schema);
  });

  it('the normalized bytes are encoded on first use and stay the same object', () => {
    const content = read(snapshotBytes(descriptorSet('e'), 'cache.M2'));
    const bytes = content.schema.bytes;
    expect(bytes).toEqual(content.descriptorBytes);
    expect(content.schema.bytes).toBe(bytes);
  });
});
