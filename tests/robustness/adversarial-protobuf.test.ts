/**
 * Adversarial Protobuf inputs (saved snapshots, descriptor sets, values): each ends in a DecodeError
 * with a specific message and location, never another exception or a stack overflow.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { loadDescriptorSet } from '../../src/core/compat';
import { createSnapshotRegistry } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { ByteReader, ByteWriter, isDecodeError } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, registerProtobufSnapshotReaders, writeProtobufSnapshotParts } from '../../src/core/protobuf';
import { JAVA_PARSE_MESSAGES } from '../../src/core/protobuf/protobuf-errors';
import { writeProtobufSnapshot } from '../../src/core/protobuf/write-protobuf-snapshot';

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
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'invalid-value',
      'Recognised as a FileDescriptorSet but corrupt: premature EOF — at set.binpb, offset 11 (0xb) [descriptor set]',
    ]);
  });

  it('a missing import and a duplicate file name point at the file entry', () => {
    const missing = load([0x0a, 0x09, 0x0a, 0x07, ...ascii('a.proto'), 0x0a, 0x0c, 0x0a, 0x07, ...ascii('b.proto'), 0x1a, 0x01, 0x63]);
    expect(isDecodeError(missing) && missing.message).toBe('Cannot find c, imported by b.proto — at set.binpb, offset 11 (0xb) [descriptor set]');
    const twice = load([0x0a, 0x09, 0x0a, 0x07, ...ascii('a.proto'), 0x0a, 0x09, 0x0a, 0x07, ...ascii('a.proto')]);
    expect(isDecodeError(twice) && twice.message).toBe('The FileDescriptorSet contains a.proto twice — at set.binpb, offset 11 (0xb) [descriptor set]');
  });
});

describe('Protobuf values nested 100,000 deep', () => {
  // message Node { Node child = 1; }
  const nodeSet = toBinary(
    FileDescriptorSetSchema,
    create(FileDescriptorSetSchema, {
      file: [
        {
          name: 'node.proto',
          package: 'deep',
          syntax: 'proto3',
          messageType: [{ name: 'Node', field: [{ name: 'child', number: 1, label: 1, type: 11, typeName: '.deep.Node', jsonName: 'child' }] }],
        },
      ],
    }),
  );
  const varintSize = (v: number) => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : 4);

  /** A frame holding `depth` nested `child` messages, written outside-in without quadratic copying. */
  function nestedFrame(depth: number): Uint8Array {
    const lengths = [0];
    for (let k = 0; k < depth; k++) lengths.push(1 + varintSize(lengths[k]!) + lengths[k]!);
    const w = new ByteWriter().i32(lengths[depth]!);
    for (let k = depth - 1; k >= 0; k--) {
      w.u8(0x0a);
      let v = lengths[k]!;
      while (v >= 0x80) {
        w.u8((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      w.u8(v);
    }
    return w.finish();
  }

  /** A frame of `depth` nested unknown groups (field 2): start-group tags, then end-group tags. */
  function nestedGroupsFrame(depth: number): Uint8Array {
    return new ByteWriter()
      .i32(2 * depth)
      .bytes(new Uint8Array(depth).fill(0x13))
      .bytes(new Uint8Array(depth).fill(0x14))
      .finish();
  }

  function decodeWith(recursionLimit: number, frame = nestedFrame(100_000)): unknown {
    const w = new ByteWriter();
    writeProtobufSnapshot(w, {
      javaClass: 'deep.NodeOuterClass$Node',
      rootFullName: 'deep.Node',
      settings: { ...DEFAULT_PROTOBUF_SETTINGS, recursionLimit },
      descriptorSet: nodeSet,
    });
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const snapshot = readNestedSerializerSnapshot(new ByteReader(w.finish(), { file: 'snap' }), registry);
    try {
      return snapshot.codec!.decode(new ByteReader(frame, { file: 'state' }));
    } catch (e) {
      return e;
    }
  }

  it("the snapshot's recursionLimit (100) applies, in protobuf-java's words", () => {
    const e = decodeWith(100);
    expect(isDecodeError(e) && [e.code, e.file]).toEqual(['protobuf', 'state']);
    expect((e as Error).message).toBe(
      `Invalid Protobuf frame for deep.NodeOuterClass$Node: ${JAVA_PARSE_MESSAGES.recursionLimit} — at state, offset 404 (0x194)`,
    );
  });

  it('a snapshot recording recursionLimit 2^31-1 still meets the reader’s own depth cap', () => {
    // found by this test: with a cap of 2000 the decoder overflowed the stack (RangeError) first
    const e = decodeWith(0x7fffffff);
    expect(isDecodeError(e) && [e.code, e.file]).toEqual(['limit-exceeded', 'state']);
    expect((e as Error).message).toBe("expected at most 1000 nesting levels (this reader's cap), found more — at state, offset 4004 (0xfa4)");
  });

  it('100,000 nested unknown groups meet the same limits', () => {
    for (const [limit, code] of [
      [100, 'protobuf'],
      [0x7fffffff, 'limit-exceeded'],
    ] as const) {
      const e = decodeWith(limit, nestedGroupsFrame(100_000));
      expect(isDecodeError(e) && [e.code, e.file]).toEqual([code, 'state']);
    }
  });

  it('a value just under the cap still decodes, JSON view included', () => {
    const v = decodeWith(0x7fffffff, nestedFrame(999)) as { kind: string; depth: number; json: unknown };
    expect([v.kind, v.depth]).toEqual(['message', 999]);
    expect(JSON.stringify(v.json).length).toBeGreaterThan(999 * 10);
  });
});

describe('descriptor sets with import cycles or millions of declared fields', () => {
  const varint = (w: ByteWriter, v: number) => {
    while (v >= 0x80) {
      w.u8((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    return w.u8(v);
  };
  const lengthDelimited = (w: ByteWriter, tag: number, body: Uint8Array) => varint(varint(w, tag), body.length).bytes(body);

  /** a.proto declaring message `a.M` with `fields` fields named f (never built as objects here). */
  function millionFieldSet(fields: number): Uint8Array {
    const field = new ByteWriter().u8(0x12).u8(3).u8(0x0a).u8(1).u8(0x66).finish();
    const msg = new ByteWriter().u8(0x0a).u8(1).u8(0x4d);
    for (let i = 0; i < fields; i++) msg.bytes(field);
    const file = new ByteWriter().u8(0x0a).u8(7).bytes(ascii('a.proto')).u8(0x12).u8(1).u8(0x61);
    lengthDelimited(file, 0x22, msg.finish());
    return lengthDelimited(new ByteWriter(), 0x0a, file.finish()).finish();
  }

  const cycle = toBinary(
    FileDescriptorSetSchema,
    create(FileDescriptorSetSchema, {
      file: [
        { name: 'a.proto', package: 'a', dependency: ['b.proto'], messageType: [{ name: 'A' }], syntax: 'proto3' },
        { name: 'b.proto', package: 'b', dependency: ['a.proto'], messageType: [{ name: 'B' }], syntax: 'proto3' },
      ],
    }),
  );

  it('an import cycle is named, as the new schema and inside a snapshot', () => {
    const e = (() => {
      try {
        loadDescriptorSet(cycle, 'cycle.binpb');
      } catch (x) {
        return x;
      }
      return undefined;
    })();
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'invalid-value',
      'Invalid descriptor set: Cyclic descriptor file imports: a.proto → b.proto → a.proto — at cycle.binpb, offset 0 (0x0) [descriptor set]',
    ]);
    const s = readSnapshotWithDescriptors(cycle);
    expect(isDecodeError(s) && [s.code, s.detail, s.offset]).toEqual(['protobuf', 'Cannot read Protobuf snapshot: Cyclic descriptor file imports', 105]);
  });

  it('a million declared fields are refused from the bytes, before descriptors are built', () => {
    const set = millionFieldSet(1_000_000);
    expect(set.length).toBeGreaterThan(5_000_000);
    const e = (() => {
      try {
        loadDescriptorSet(set, 'huge.binpb');
      } catch (x) {
        return x;
      }
      return undefined;
    })();
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'limit-exceeded',
      "Expected a FileDescriptorSet declaring at most 100000 fields and enum values (this inspector's cap), found more — at huge.binpb, offset 0 (0x0) [descriptor set]",
    ]);
    const s = readSnapshotWithDescriptors(set, 'a.M');
    expect(isDecodeError(s) && [s.code, s.detail, s.offset]).toEqual([
      'limit-exceeded',
      "Cannot read Protobuf snapshot: expected a descriptor set declaring at most 100000 fields and enum values (this reader's cap), found more",
      105,
    ]);
  });

  it('an ordinary set (1000 fields) still loads', () => {
    // the same shape with fields protoc would accept: f0…f999 numbered 1…1000, optional int32
    const msg = new ByteWriter().u8(0x0a).u8(1).u8(0x4d);
    for (let i = 0; i < 1000; i++) {
      const name = ascii(`f${i}`);
      const field = new ByteWriter().u8(0x0a).u8(name.length).bytes(new Uint8Array(name)).u8(0x18);
      for (let n = i + 1; ; n >>>= 7) {
        if (n < 0x80) {
          field.u8(n);
          break;
        }
        field.u8((n & 0x7f) | 0x80);
      }
      lengthDelimited(msg, 0x12, field.u8(0x20).u8(1).u8(0x28).u8(5).finish());
    }
    const file = new ByteWriter().u8(0x0a).u8(7).bytes(ascii('a.proto')).u8(0x12).u8(1).u8(0x61);
    lengthDelimited(file, 0x22, msg.finish());
    const set = lengthDelimited(new ByteWriter(), 0x0a, file.finish()).finish();
    expect(loadDescriptorSet(set, 'ok.binpb').set.file[0]!.messageType[0]!.field).toHaveLength(1000);
    // the degenerate shape (every field named f, numbered 0, untyped) is counted the same, and refused as protoc would
    expect(() => loadDescriptorSet(millionFieldSet(1000), 'bad.binpb')).toThrow(
      'Invalid descriptor set (protoc would refuse it): a.M.f is declared twice as a field',
    );
  });
});
