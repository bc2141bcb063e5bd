import { create, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { findDescriptorBuilds, parseMethodDescriptor } from './find-descriptor-builds';
import { joinDescriptorParts } from './join-descriptor-parts';
import { readClassFile } from './read-class-file';
import { ConstantPoolWriter, u2, writeClassFile, writeGencodeClass } from './write-class-file';

/** a descriptor with every byte value, so the ISO-8859-1 round trip is exercised */
const DESCRIPTOR = toBinary(
  FileDescriptorProtoSchema,
  create(FileDescriptorProtoSchema, { name: 'a/b.proto', package: Array.from({ length: 256 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('') }),
);
const ALL_BYTES = Uint8Array.from({ length: 512 }, (_, i) => i % 256);

describe('findDescriptorBuilds', () => {
  it('reads the parts in array-index order (not constant-pool order), ldc_w past 255 entries, the dependencies and the gencode version', () => {
    const bytes = writeGencodeClass({
      name: 'com/x/Outer',
      descriptor: ALL_BYTES,
      partSize: 1,
      reversePool: true,
      dependencies: ['com/x/DepA', 'com/y/DepB'],
      gencodeVersion: [4, 36, 2],
    });
    const found = findDescriptorBuilds(readClassFile(bytes, 'Outer.class'));
    expect(found.gencodeVersion).toEqual({ major: 4, minor: 36, patch: 2, suffix: '' });
    expect(found.builds.length).toBe(1);
    const build = found.builds[0]!;
    expect(build.parts.length).toBe(512);
    expect(joinDescriptorParts(build.parts, { file: 'Outer.class', offset: 0, owner: 'com.x.Outer' })).toEqual(ALL_BYTES);
    expect(build.dependencyClasses).toEqual(['com/x/DepA', 'com/y/DepB']);
    expect(build.runtimePackage).toBe('com/google/protobuf');
  });

  it('follows a relocated runtime and 3.x gencode (no version check)', () => {
    const bytes = writeGencodeClass({ name: 'com/x/Outer', descriptor: DESCRIPTOR, runtime: 'shaded/com/google/protobuf' });
    const found = findDescriptorBuilds(readClassFile(bytes, 'Outer.class'));
    expect(found.gencodeVersion).toBeUndefined();
    expect(found.builds[0]!.runtimePackage).toBe('shaded/com/google/protobuf');
    expect(joinDescriptorParts(found.builds[0]!.parts, { file: '', offset: 0, owner: '' })).toEqual(DESCRIPTOR);
  });

  it('reads the reflective overload: dependency class names and file names as String[] literals', () => {
    const pool = new ConstantPoolWriter();
    const fd = 'com/google/protobuf/Descriptors$FileDescriptor';
    const strings = (values: string[]): number[] => [
      0x03 + values.length,
      0xbd,
      ...u2(pool.classRef('java/lang/String')),
      ...values.flatMap((v, i) => [0x59, 0x03 + i, 0x12, pool.string(v), 0x53]),
    ];
    const code = [
      ...strings(['\n\ta/b.proto']),
      0x12,
      pool.classRef('com/x/Outer'),
      ...strings(['com.google.protobuf.TimestampProto']),
      ...strings(['google/protobuf/timestamp.proto']),
      0xb8,
      ...u2(pool.methodRef(fd, 'internalBuildGeneratedFileFrom', `([Ljava/lang/String;Ljava/lang/Class;[Ljava/lang/String;[Ljava/lang/String;)L${fd};`)),
      0xb3,
      ...u2(pool.fieldRef('com/x/Outer', 'descriptor', `L${fd};`)),
      0xb1,
    ];
    const found = findDescriptorBuilds(readClassFile(writeClassFile(pool, 'com/x/Outer', [{ name: '<clinit>', descriptor: '()V', code }]), 'Outer.class'));
    expect(found.builds[0]).toMatchObject({
      parts: ['\n\ta/b.proto'],
      dependencyClasses: ['com/google/protobuf/TimestampProto'],
      dependencyFiles: ['google/protobuf/timestamp.proto'],
    });
  });

  it('does not guess across code it does not model: a part computed at run time is not the pattern', () => {
    const pool = new ConstantPoolWriter();
    const fd = 'com/google/protobuf/Descriptors$FileDescriptor';
    const code = [
      0x04,
      0xbd,
      ...u2(pool.classRef('java/lang/String')),
      0x59,
      0x03,
      0xb8,
      ...u2(pool.methodRef('com/x/Secret', 'part', '()Ljava/lang/String;')),
      0x53,
      0x03,
      0xbd,
      ...u2(pool.classRef(fd)),
      0xb8,
      ...u2(pool.methodRef(fd, 'internalBuildGeneratedFileFrom', `([Ljava/lang/String;[L${fd};)L${fd};`)),
      0x57,
      0xb1,
    ];
    expect(() =>
      findDescriptorBuilds(readClassFile(writeClassFile(pool, 'com/x/Outer', [{ name: '<clinit>', descriptor: '()V', code }]), 'Outer.class')),
    ).toThrow(
      "expected protoc's generated-code pattern before internalBuildGeneratedFileFrom in the static initializer of com.x.Outer, found descriptor part 0 that is not a string constant",
    );
  });

  it('a char above U+00FF is not a descriptor', () => {
    expect(() => joinDescriptorParts(['ab', 'c\u0100'], { file: 'Outer.class', offset: 7, owner: 'com.x.Outer' })).toThrow(
      'expected descriptor part 1 of com.x.Outer to hold bytes (chars U+0000–U+00FF), found U+0100 at char 1: not a serialized descriptor — at Outer.class, offset 7 (0x7) [class file / <clinit>]',
    );
  });

  it("counts a method descriptor's parameters", () => {
    expect(parseMethodDescriptor('([Ljava/lang/String;[Lcom/x/Y;JDI)Lcom/x/Y;')).toEqual({ params: 5, returns: true });
    expect(parseMethodDescriptor('()V')).toEqual({ params: 0, returns: false });
  });
});
