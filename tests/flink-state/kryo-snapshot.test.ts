/**
 * KryoSerializerSnapshot (version 2, KryoSerializerSnapshotData of Flink 1.x and 2.x) against its layout: every
 * registration with its kind (UNSPECIFIED, CLASS, INSTANCE: the class inside the Java-serialized instance), a
 * registration Flink wrote without its value (class not loadable), default serializer instances and classes,
 * and the errors of a bad kind.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../src/core/io';
import { createSnapshotRegistry, getKryoSnapshotDetails } from '../../src/core/flink';
import { findJavaSerializedClass } from '../../src/core/flink/snapshots/kryo-snapshot';
import { readSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { CLS, writeTopLevel } from '../helpers/write-test-snapshots';
import { decodeErrorOf } from '../helpers/decode-error-of';

const HEADER = 0x4f2c69a3d70n;
const CHILL = 'com.twitter.chill.protobuf.ProtobufSerializer';

/** A Java serialization stream of a SerializableSerializer wrapping a serializer of class `inner`. */
function javaSerialized(wrapper: string, inner: string): Uint8Array {
  const w = new ByteWriter()
    .u16(0xaced)
    .u16(5)
    .u8(0x73)
    .u8(0x72)
    .utf(wrapper)
    .i64(1n)
    .u8(2)
    .u16(1)
    .u8(0x4c)
    .utf('serializer')
    .u8(0x74)
    .utf('Lcom/esotericsoftware/kryo/Serializer;');
  w.u8(0x78).u8(0x70).u8(0x73).u8(0x72).utf(inner).i64(2n).u8(2).u16(0).u8(0x78).u8(0x70);
  return w.finish();
}

function frame(w: ByteWriter, content: (f: ByteWriter) => void): void {
  const f = new ByteWriter();
  content(f);
  const b = f.finish();
  w.i32(b.length).bytes(b);
}

function read(content: (w: ByteWriter) => void) {
  const w = writeTopLevel(new ByteWriter(), { raw: CLS.kryo, version: 2, content });
  w.u8(0xcc);
  const r = new ByteReader(w.finish(), { file: 'f' });
  const s = readSerializerSnapshot(r, createSnapshotRegistry());
  expect(r.readU8()).toBe(0xcc);
  return s;
}

describe('KryoSerializerSnapshot', () => {
  it('reads registrations of every kind, a missing one, default serializer instances and classes', () => {
    const s = read((w) => {
      w.utf('a.Event').i64(HEADER).i32(4);
      // key frame absent as Flink writes for registrations (name only); CLASS
      w.utf('a.Event').bool(false).bool(true);
      frame(w, (f) => f.utf('a.Event').i32(1).utf(CHILL));
      // UNSPECIFIED
      w.utf('a.Rule').bool(false).bool(true);
      frame(w, (f) => f.utf('a.Rule').i32(0));
      // INSTANCE (Flink 2 wrapper class)
      w.utf('a.Other').bool(false).bool(true);
      frame(w, (f) => f.utf('a.Other').i32(2).bytes(javaSerialized('org.apache.flink.api.common.SerializableSerializer', CHILL)));
      // value absent: the class could not be loaded when the snapshot was written
      w.utf('a.Gone').bool(false).bool(false);
      // default serializers (instances; Flink 1 wrapper)
      w.i64(HEADER).i32(1).utf('com.google.protobuf.GeneratedMessageV3').bool(true);
      frame(w, (f) => f.utf('com.google.protobuf.GeneratedMessageV3'));
      w.bool(true);
      frame(w, (f) => f.bytes(javaSerialized('org.apache.flink.api.common.ExecutionConfig$SerializableSerializer', CHILL)));
      // default serializer classes
      w.i64(HEADER).i32(1).utf('com.google.protobuf.Message').bool(true);
      frame(w, (f) => f.utf('com.google.protobuf.Message'));
      w.bool(true);
      frame(w, (f) => f.utf(CHILL));
    });
    expect(s.typeLabel).toBe('Kryo Event');
    expect(s.status).toBe('opaque');
    expect(getKryoSnapshotDetails(s)).toEqual({
      typeClass: 'a.Event',
      registrations: [
        { name: 'a.Event', registeredClass: 'a.Event', kind: 'CLASS', serializerClass: CHILL },
        { name: 'a.Rule', registeredClass: 'a.Rule', kind: 'UNSPECIFIED' },
        { name: 'a.Other', registeredClass: 'a.Other', kind: 'INSTANCE', serializerClass: CHILL },
        { name: 'a.Gone' },
      ],
      defaultSerializers: [{ forClass: 'com.google.protobuf.GeneratedMessageV3', serializerClass: CHILL }],
      defaultSerializerClasses: [{ forClass: 'com.google.protobuf.Message', serializerClass: CHILL }],
    });
  });

  it('rejects a registration kind other than 0, 1 and 2 at its offset', () => {
    const e = decodeErrorOf(() =>
      read((w) => {
        w.utf('a.Event').i64(HEADER).i32(1).utf('a.Event').bool(false).bool(true);
        frame(w, (f) => f.utf('a.Event').i32(3));
      }),
    );
    expect(e.detail).toBe('expected a Kryo registration kind 0 (UNSPECIFIED), 1 (CLASS) or 2 (INSTANCE), found 3');
    expect(e.file).toBe('f');
  });

  it('finds no class in bytes that hold no class descriptor', () => {
    expect(findJavaSerializedClass(new Uint8Array([0xac, 0xed, 0, 5, 0x70]))).toBeUndefined();
    expect(findJavaSerializedClass(javaSerialized('org.apache.flink.api.common.SerializableSerializer', 'x.y.Z'))).toBe('x.y.Z');
  });
});
