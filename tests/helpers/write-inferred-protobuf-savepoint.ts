/**
 * Synthetic savepoints for the serializer versions not yet seen (issue #17): one keyed operator (id 32 × 'b',
 * max parallelism 1) whose ValueState `v` has a Long key and a value serializer snapshot of a class no reader
 * knows, laid out as `layout` says (the 0.1.0 payload under another class name, other length encodings of the
 * descriptor set, a DynamicMessage snapshot without a Java class, or bytes that only look like a set). The
 * values are written in the 0.1.0 value framing (4-byte big-endian length + payload) unless `valueFrame` says
 * otherwise.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { ByteWriter } from '../../src/core/io';
import { writeOneKeyedSavepoint } from './write-one-keyed-savepoint';
import { DEFAULT_PROTOBUF_SETTINGS, normalizeSnapshotDescriptors, writeProtobufSnapshotParts } from '../../src/core/protobuf';
import { CLS, simple, valueState, writeKeyedHeader } from './write-test-snapshots';

/** Saved schema: p.Val { int64 n = 1; string s = 2; } in v.proto, Java class p.V$Val. */
export const INFERRED_SAVED_SET = toBinary(
  FileDescriptorSetSchema,
  create(FileDescriptorSetSchema, {
    file: [
      {
        name: 'v.proto',
        package: 'p',
        syntax: 'proto3',
        options: { javaPackage: 'p', javaOuterClassname: 'V' },
        messageType: [
          {
            name: 'Val',
            field: [
              { name: 'n', number: 1, label: 1, type: 3, jsonName: 'n' },
              { name: 's', number: 2, label: 1, type: 9, jsonName: 's' },
            ],
          },
        ],
      },
    ],
  }),
);

export type InferredLayout =
  /** the 0.1.0 payload exactly, under another class name */
  | { kind: 'v010' }
  /** root name, then the set with its length as `encoding`, then 9 bytes of settings (flag, two ints) after it */
  | { kind: 'reordered'; encoding: 'varint' | 'u16'; javaClass?: string }
  /** not a descriptor set: int32 length + bytes starting with 0x0a that are no valid set */
  | { kind: 'fake-set' }
  /**
   * flink-protobuf-serde's snapshot as a serializer parameterised by the message class writes it (seeds/004
   * publishes no layout): the class name with writeUTF; its values are toByteArray() behind a 4-byte length
   */
  | { kind: 'peer-serde'; javaClass: string };

export const ROOT = 'p.Val';
export const JAVA_CLASS = 'p.V$Val';
export const VALUES: { key: number; payload: number[] }[] = [
  { key: 1, payload: [0x08, 0x07] }, // n: 7
  { key: 2, payload: [0x08, 0x2a, 0x12, 0x02, 0x68, 0x69] }, // n: 42, s: "hi"
];

export function writeInferredSnapshotContent(layout: InferredLayout): Uint8Array {
  const set = normalizeSnapshotDescriptors(INFERRED_SAVED_SET, ROOT);
  const w = new ByteWriter();
  if (layout.kind === 'v010') {
    const whole = new ByteWriter();
    writeProtobufSnapshotParts(whole, JAVA_CLASS, ROOT, DEFAULT_PROTOBUF_SETTINGS, set);
    const all = whole.finish();
    // the serializer's writer starts with Flink's envelope (class name, version): the content follows it
    const envelope = 2 + ((all[0]! << 8) | all[1]!) + 4;
    return all.subarray(envelope);
  }
  if (layout.kind === 'peer-serde') return w.utf(layout.javaClass).finish();
  if (layout.kind === 'fake-set') {
    w.utf(ROOT).i32(12).bytes([0x0a, 0x0a, 0x0a, 0x05, 0x61, 0x2e, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x0a]);
    return w.finish();
  }
  w.i32(1);
  if (layout.javaClass) w.utf(layout.javaClass);
  w.utf(ROOT);
  if (layout.encoding === 'u16') w.u16(set.length);
  else {
    let n = set.length;
    while (n >= 0x80) {
      w.u8((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    w.u8(n);
  }
  w.bytes(set);
  // settings after the set, where no reader of the 0.1.0 layout looks: flag, maxMessageSize, recursionLimit
  w.u8(0).i32(67108864).i32(100);
  return w.finish();
}

export function writeInferredProtobufSavepoint(dir: string, className: string, layout: InferredLayout): void {
  const content = writeInferredSnapshotContent(layout);
  const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [
    valueState('v', { raw: className, version: 1, content: (w) => w.bytes(content) }),
  ]).finish();
  const block = new ByteWriter().u16(0);
  VALUES.forEach((v, i) => {
    const key = new ByteWriter().u8(0).i64(BigInt(v.key)).u8(0).finish();
    if (i === VALUES.length - 1) key[0]! |= 0x80;
    const value = new ByteWriter().i32(v.payload.length).bytes(v.payload).finish();
    block.i32(key.length).bytes(key).i32(value.length).bytes(value);
  });
  block.u16(0xffff);
  const state = new ByteWriter().bytes(header).bytes(block.finish()).finish();
  writeOneKeyedSavepoint(dir, { operatorId: 'b'.repeat(32), maxParallelism: 1, keyGroupOffset: header.length, state });
}
