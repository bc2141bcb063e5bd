/** dropSourceCodeInfo: the set decodes as before without source_code_info, and anything not well framed is left as it is. */
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { dropSourceCodeInfo } from './drop-source-code-info';

function makeSet(withSourceInfo: boolean): FileDescriptorSet {
  const location = (path: number[], comment: string) => ({ path, span: [1, 2, 30], leadingComments: comment, leadingDetachedComments: ['x'] });
  const file = (name: string, pkg: string): MessageInitShape<typeof FileDescriptorProtoSchema> => ({
    name,
    package: pkg,
    syntax: 'proto3',
    messageType: [{ name: 'Event', field: [{ name: 'id', number: 1, type: 5, label: 1, jsonName: 'id' }] }],
    options: { javaPackage: 'io.example' },
    ...(withSourceInfo ? { sourceCodeInfo: { location: [location([4, 0], ' An event.\n'), location([4, 0, 2, 0], ' ü '.repeat(50))] } } : {}),
  });
  return create(FileDescriptorSetSchema, { file: [file('a.proto', 'a'), file('b.proto', 'b'), file('c.proto', 'c')] });
}

describe('dropSourceCodeInfo', () => {
  it("removes every file's source info and nothing else", () => {
    const bytes = toBinary(FileDescriptorSetSchema, makeSet(true));
    const dropped = dropSourceCodeInfo(bytes);
    expect(dropped.length).toBeLessThan(bytes.length);
    expect(dropped).toEqual(toBinary(FileDescriptorSetSchema, makeSet(false)));
    const decoded = fromBinary(FileDescriptorSetSchema, dropped);
    expect(decoded.file.map((f) => [f.name, f.sourceCodeInfo])).toEqual([
      ['a.proto', undefined],
      ['b.proto', undefined],
      ['c.proto', undefined],
    ]);
  });

  it('returns a set without source info as it is', () => {
    const bytes = toBinary(FileDescriptorSetSchema, makeSet(false));
    expect(dropSourceCodeInfo(bytes)).toBe(bytes);
  });

  it('leaves a set alone whose framing is broken anywhere, so decoding it fails as before', () => {
    const bytes = toBinary(FileDescriptorSetSchema, makeSet(true));
    const truncated = bytes.subarray(0, bytes.length - 3);
    expect(dropSourceCodeInfo(truncated)).toBe(truncated);
    // a location whose path is a double (wire type 1) instead of varints
    const bad = toBinary(FileDescriptorSetSchema, makeSet(true));
    const at = bad.indexOf(0x0a, bad.indexOf(0x4a)); // first location's tag inside source_code_info (field 9 = 0x4a)
    const pathTag = bad.indexOf(0x0a, at + 2); // its path: field 1, LEN
    bad[pathTag] = 0x09;
    expect(dropSourceCodeInfo(bad)).toBe(bad);
    const notASet = new Uint8Array([0x12, 0x00]);
    expect(dropSourceCodeInfo(notASet)).toBe(notASet);
  });

  it('frames varints as the decoders do (the one wire reader): a 10-byte varint in a location is a value like any other', () => {
    // file { name: "a.proto", source_code_info { location { 7: -1 (an int64 varint of 10 bytes, above 2^53) } } }
    const location = new BinaryWriter().tag(7, WireType.Varint).int64(-1).finish();
    const sourceInfo = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(location).finish();
    const withInfo = new BinaryWriter().tag(1, WireType.LengthDelimited).string('a.proto').tag(9, WireType.LengthDelimited).bytes(sourceInfo).finish();
    const without = new BinaryWriter().tag(1, WireType.LengthDelimited).string('a.proto').finish();
    const set = (file: Uint8Array) => new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(file).finish();
    expect(dropSourceCodeInfo(set(withInfo))).toEqual(set(without));
    // the same varint cut off is not framed: the set stays as it is
    const cut = set(withInfo).subarray(0, set(withInfo).length - 1);
    expect(dropSourceCodeInfo(cut)).toBe(cut);
  });
});
