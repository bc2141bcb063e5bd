import { create, fromBinary, isFieldSet, toBinary } from '@bufbuild/protobuf';
import { FieldDescriptorProtoSchema, FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { toGencodeDescriptorSet } from '../../bench/generate/to-gencode-descriptor-set';

const JSON_NAME = FieldDescriptorProtoSchema.field.jsonName;

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return out;
}

function buildSet(): Uint8Array {
  const set = create(FileDescriptorSetSchema, {
    file: [
      {
        name: 'bench/x.proto',
        package: 'bench',
        messageType: [
          {
            name: 'Event',
            field: [
              { name: 'timestamp_ms', number: 1, jsonName: 'timestampMs' },
              { name: 'label', number: 2, jsonName: 'customLabel' },
              { name: 'plain', number: 3 },
            ],
            nestedType: [{ name: 'Inner', field: [{ name: 'user_id', number: 1, jsonName: 'userId' }] }],
          },
        ],
      },
    ],
  });
  const bytes = toBinary(FileDescriptorSetSchema, set);
  // buf's image extension on the file: field 8042 (length-delimited) holding 08 00 18 00, as `buf build -o` writes it
  const ext = [0xd2, 0xf6, 0x03, 0x04, 0x08, 0x00, 0x18, 0x00];
  const file = toBinary(FileDescriptorProtoSchema, set.file[0]!);
  expect(bytes.length).toBe(1 + varint(file.length).length + file.length); // the set is that one file entry
  return new Uint8Array([0x0a, ...varint(file.length + ext.length), ...file, ...ext]);
}

describe('toGencodeDescriptorSet', () => {
  it('drops derived json_names and buf image extension bytes, keeps explicit json_names', () => {
    const input = buildSet();
    const before = fromBinary(FileDescriptorSetSchema, input);
    expect(before.file[0]!.$unknown?.length).toBe(1);
    const out = fromBinary(FileDescriptorSetSchema, toGencodeDescriptorSet(input));
    const event = out.file[0]!.messageType[0]!;
    expect(out.file[0]!.$unknown ?? []).toEqual([]);
    expect(isFieldSet(event.field[0]!, JSON_NAME)).toBe(false);
    expect(event.field[1]!.jsonName).toBe('customLabel');
    expect(isFieldSet(event.field[2]!, JSON_NAME)).toBe(false);
    expect(isFieldSet(event.nestedType[0]!.field[0]!, JSON_NAME)).toBe(false);
    expect(event.field.map((f) => [f.name, f.number])).toEqual([
      ['timestamp_ms', 1],
      ['label', 2],
      ['plain', 3],
    ]);
  });
});
