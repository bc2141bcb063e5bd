/**
 * Property tests (fast-check, seeded) for writer → reader round trips of everything the core writes:
 * Java DataOutput primitives, modified UTF-8 (writeUTF), Flink StringValue, Protobuf value frames,
 * the Protobuf serializer snapshot, and descriptor normalization (idempotent, stable bytes).
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry } from '../../src/core/flink';
import { readNestedSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { ByteReader, ByteWriter, decodeModifiedUtf8, encodeModifiedUtf8 } from '../../src/core/io';
import { getProtobufSnapshotContent, normalizeSnapshotDescriptors, registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { readProtobufFrame } from '../../src/core/protobuf/read-protobuf-frame';
import { writeProtobufFrame } from '../../src/core/protobuf/write-protobuf-frame';
import { writeProtobufSnapshot } from '../../src/core/protobuf/write-protobuf-snapshot';

const SEED = 20_260_429;
const run = (p: fc.IProperty<unknown> | fc.IAsyncProperty<unknown>, numRuns = 300) => fc.assert(p as fc.IProperty<unknown>, { seed: SEED, numRuns });

/** Any JS string, including lone surrogates and U+0000 (both special in modified UTF-8). */
const anyString = fc.string({
  unit: fc.oneof(
    fc.constant('\u0000'),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 200,
});

describe('Java DataOutput primitives', () => {
  it('i8/i16/u16/i32/u32/i64/f32/f64/bool read back exactly, in order', () => {
    run(
      fc.property(
        fc.integer({ min: -128, max: 127 }),
        fc.integer({ min: -32768, max: 32767 }),
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: -0x80000000, max: 0x7fffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.float({ noNaN: true }),
        fc.double({ noNaN: true }),
        fc.boolean(),
        (i8, i16, u16, i32, u32, i64, f32, f64, b) => {
          const bytes = new ByteWriter()
            .u8(i8 & 0xff)
            .i16(i16)
            .u16(u16)
            .i32(i32)
            .u32(u32)
            .i64(i64)
            .f32(f32)
            .f64(f64)
            .bool(b)
            .finish();
          expect(bytes.length).toBe(1 + 2 + 2 + 4 + 4 + 8 + 4 + 8 + 1);
          const r = new ByteReader(bytes);
          expect([r.readI8(), r.readI16(), r.readU16(), r.readI32(), r.readU32(), r.readI64(), r.readF32(), r.readF64(), r.readBool()]).toEqual([
            i8,
            i16,
            u16,
            i32,
            u32,
            i64,
            f32,
            f64,
            b,
          ]);
          expect(r.atEnd).toBe(true);
        },
      ),
    );
  });
});

describe('modified UTF-8', () => {
  it('encode → decode is the identity; no NUL byte is ever written; writeUTF → readUTF agrees', () => {
    run(
      fc.property(anyString, (s) => {
        const enc = encodeModifiedUtf8(s);
        expect(enc.includes(0)).toBe(false);
        expect(decodeModifiedUtf8(enc)).toEqual({ value: s });
        const r = new ByteReader(new ByteWriter().utf(s).i32(7).finish());
        expect(r.readUtf()).toBe(s);
        expect(r.readI32()).toBe(7);
      }),
    );
  });
});

describe('Flink StringValue', () => {
  it('write → read is the identity, null included, and consumes exactly what was written', () => {
    run(
      fc.property(fc.option(anyString, { nil: null }), (s) => {
        const r = new ByteReader(new ByteWriter().stringValue(s).i32(-1).finish());
        expect(r.readStringValue()).toBe(s);
        expect(r.readI32()).toBe(-1);
        expect(r.atEnd).toBe(true);
      }),
    );
  });
});

describe('Protobuf value frames', () => {
  it('a sequence of frames reads back payload for payload, with absolute offsets', () => {
    run(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }), fc.nat({ max: 64 }), (payloads, base) => {
        const w = new ByteWriter();
        for (const p of payloads) writeProtobufFrame(w, p, 1 << 20);
        const r = new ByteReader(w.finish(), { baseOffset: base });
        let at = base;
        for (const p of payloads) {
          const f = readProtobufFrame(r, 1 << 20);
          expect([f.frameOffset, f.payloadOffset, f.length, f.missing]).toEqual([at, at + 4, p.length, 0]);
          expect(f.payload).toEqual(p);
          at += 4 + p.length;
        }
        expect(r.atEnd).toBe(true);
      }),
    );
  });
});

/** A descriptor set with a root message of `fields` int32/string fields and an imported enum file. */
function descriptorSet(pkg: string, root: string, fields: { name: string; number: number; string: boolean }[]): Uint8Array {
  return toBinary(
    FileDescriptorSetSchema,
    create(FileDescriptorSetSchema, {
      file: [
        {
          name: `${pkg}/root.proto`,
          package: pkg,
          syntax: 'proto3',
          dependency: [`${pkg}/kinds.proto`],
          messageType: [{ name: root, field: fields.map((f) => ({ name: f.name, number: f.number, label: 1, type: f.string ? 9 : 5, jsonName: f.name })) }],
        },
        { name: `${pkg}/kinds.proto`, package: pkg, syntax: 'proto3', enumType: [{ name: 'Kind', value: [{ name: 'KIND_UNSPECIFIED', number: 0 }] }] },
      ],
    }),
  );
}

const ident = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
const schemaArb = fc.record({
  pkg: ident,
  root: ident.map((s) => `M${s}`),
  fields: fc
    .uniqueArray(fc.record({ name: ident, number: fc.integer({ min: 1, max: 18_999 }), string: fc.boolean() }), { selector: (f) => f.number, maxLength: 12 })
    .map((fs) => {
      const names = new Set<string>();
      return fs.filter((f) => !names.has(f.name) && names.add(f.name));
    }),
});

describe('Protobuf serializer snapshot', () => {
  it('write → read returns the class, root, settings and the normalized descriptor bytes', () => {
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    run(
      fc.property(
        schemaArb,
        fc.boolean(),
        fc.integer({ min: 1, max: 0x7fffffff }),
        fc.integer({ min: 1, max: 0x7fffffff }),
        fc.stringMatching(/^[a-z]{1,8}(\.[a-z]{1,8}){0,3}\.[A-Z][A-Za-z0-9$]{0,12}$/),
        (schema, deterministic, maxMessageSize, recursionLimit, javaClass) => {
          const set = descriptorSet(schema.pkg, schema.root, schema.fields);
          const rootFullName = `${schema.pkg}.${schema.root}`;
          const w = new ByteWriter();
          writeProtobufSnapshot(w, { javaClass, rootFullName, settings: { deterministic, maxMessageSize, recursionLimit }, descriptorSet: set });
          const r = new ByteReader(w.finish(), { file: 'snap' });
          const content = getProtobufSnapshotContent(readNestedSerializerSnapshot(r, registry))!;
          expect(r.atEnd).toBe(true);
          expect([content.javaClass, content.rootFullName, content.settings]).toEqual([
            javaClass,
            rootFullName,
            { deterministic, maxMessageSize, recursionLimit },
          ]);
          expect(content.descriptorBytes).toEqual(normalizeSnapshotDescriptors(set, rootFullName));
          expect(content.schema.root.fields.map((f) => f.number).sort((a, b) => a - b)).toEqual(schema.fields.map((f) => f.number).sort((a, b) => a - b));
        },
      ),
      100,
    );
  });
});

describe('descriptor normalization', () => {
  it('is idempotent and independent of the order of files in the set', () => {
    run(
      fc.property(schemaArb, (schema) => {
        const set = descriptorSet(schema.pkg, schema.root, schema.fields);
        const root = `${schema.pkg}.${schema.root}`;
        const once = normalizeSnapshotDescriptors(set, root);
        expect(normalizeSnapshotDescriptors(once, root)).toEqual(once);
        const reversed = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [...fromSet(set)].reverse() }));
        expect(normalizeSnapshotDescriptors(reversed, root)).toEqual(once);
      }),
      100,
    );
  });
});

function fromSet(bytes: Uint8Array) {
  return fromBinary(FileDescriptorSetSchema, bytes).file;
}
