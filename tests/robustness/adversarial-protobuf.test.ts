/**
 * Adversarial Protobuf inputs (saved snapshots, descriptor sets, values): each ends in a DecodeError
 * with a specific message and location, never another exception or a stack overflow.
 */
import { describe, expect, it } from 'vitest';
import { loadDescriptorSet } from '../../src/core/compat';
import { createSnapshotRegistry, readNestedSerializerSnapshot } from '../../src/core/flink';
import { ByteReader, ByteWriter, isDecodeError } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, registerProtobufSnapshotReaders, writeProtobufSnapshotParts } from '../../src/core/protobuf';

function readSnapshotWithDescriptors(descriptorBytes: Uint8Array, root = 'a.A'): unknown {
  const w = new ByteWriter();
  writeProtobufSnapshotParts(w, 'robustness.A', root, DEFAULT_PROTOBUF_SETTINGS, descriptorBytes);
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  try {
    readNestedSerializerSnapshot(new ByteReader(w.finish(), { file: 'snap' }), registry);
  } catch (e) {
    return e;
  }
  throw new Error('expected the snapshot to be refused');
}

/** One FileDescriptorSet holding the given FileDescriptorProto bytes. */
function descriptorSetOf(...files: number[][]): Uint8Array {
  const w = new ByteWriter();
  for (const f of files) w.u8(0x0a).u8(f.length).bytes(f);
  return w.finish();
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

describe('saved descriptor sets', () => {
  it('a known descriptor field with a foreign wire type (accepted as unknown by protobuf-java rules) is a located DecodeError', () => {
    // FileDescriptorProto { name: "a.proto", field 4 (message_type) written as varint 1 }: found by the mutation suite
    // (bit flip in a schema-change fixture), used to escape as a RangeError from the descriptor builder
    const e = readSnapshotWithDescriptors(descriptorSetOf([0x0a, 7, ...ascii('a.proto'), 0x20, 0x01]));
    expect(isDecodeError(e)).toBe(true);
    if (!isDecodeError(e)) return;
    expect(e.code).toBe('protobuf');
    expect(e.detail).toBe('Cannot read Protobuf snapshot: Invalid descriptor graph: premature EOF');
    expect(e.file).toBe('snap');
    // envelope 2+59+4, versions 4+4, class 2+12, root 2+3, settings 1+4+4, length 4: descriptor bytes start at 105
    expect(e.offset).toBe(105);
  });
});

describe('descriptor sets given as the new schema', () => {
  const load = (bytes: number[]) => {
    try {
      loadDescriptorSet(new Uint8Array(bytes), 'set.binpb');
    } catch (e) {
      return e;
    }
    throw new Error('expected the descriptor set to be refused');
  };

  it('a truncated set names the byte where it ends', () => {
    const e = load([0x0a, 0x10, 0x0a, 0x07, ...ascii('a.proto')]);
    expect(isDecodeError(e) && [e.code, e.message]).toEqual(['invalid-value', 'Recognised as a FileDescriptorSet but corrupt: premature EOF — at set.binpb, offset 11 (0xb) [descriptor set]']);
  });

  it('a missing import and a duplicate file name point at the file entry', () => {
    const missing = load([0x0a, 0x09, 0x0a, 0x07, ...ascii('a.proto'), 0x0a, 0x0c, 0x0a, 0x07, ...ascii('b.proto'), 0x1a, 0x01, 0x63]);
    expect(isDecodeError(missing) && missing.message).toBe('Cannot find c, imported by b.proto — at set.binpb, offset 11 (0xb) [descriptor set]');
    const twice = load([0x0a, 0x09, 0x0a, 0x07, ...ascii('a.proto'), 0x0a, 0x09, 0x0a, 0x07, ...ascii('a.proto')]);
    expect(isDecodeError(twice) && twice.message).toBe('The FileDescriptorSet contains a.proto twice — at set.binpb, offset 11 (0xb) [descriptor set]');
  });
});
