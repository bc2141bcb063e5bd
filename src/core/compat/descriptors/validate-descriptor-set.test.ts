import { clone, create, toBinary } from '@bufbuild/protobuf';
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  DescriptorProto_ReservedRangeSchema,
  EnumDescriptorProtoSchema,
  FileDescriptorSetSchema,
  type FileDescriptorProto,
  type FileDescriptorSet,
} from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../io';
import { loadDescriptorSet } from './load-descriptor-set';
import { validateDescriptorSet } from './validate-descriptor-set';

const { INT32, STRING, MESSAGE, ENUM } = FieldDescriptorProto_Type;
const OPTIONAL = FieldDescriptorProto_Label.OPTIONAL;

/** A valid proto3 set: demo/order.proto with Order { int32 id = 1; string note = 2; Status status = 3; Item item = 4 }. */
function buildSet(edit: (file: FileDescriptorProto) => void = () => {}): FileDescriptorSet {
  const set = create(FileDescriptorSetSchema, {
    file: [
      {
        name: 'demo/order.proto',
        package: 'demo',
        syntax: 'proto3',
        messageType: [
          {
            name: 'Order',
            field: [
              { name: 'id', number: 1, type: INT32, label: OPTIONAL, jsonName: 'id' },
              { name: 'note', number: 2, type: STRING, label: OPTIONAL, jsonName: 'note' },
              { name: 'status', number: 3, type: ENUM, typeName: '.demo.Status', label: OPTIONAL, jsonName: 'status' },
              { name: 'item', number: 4, type: MESSAGE, typeName: '.demo.Order.Item', label: OPTIONAL, jsonName: 'item' },
            ],
            nestedType: [{ name: 'Item', field: [{ name: 'sku', number: 1, type: STRING, label: OPTIONAL }] }],
            reservedRange: [{ start: 10, end: 20 }],
            reservedName: ['legacy'],
          },
        ],
        enumType: [
          {
            name: 'Status',
            value: [
              { name: 'STATUS_UNKNOWN', number: 0 },
              { name: 'STATUS_OPEN', number: 1 },
            ],
          },
        ],
      },
    ],
  });
  edit(set.file[0]!);
  return set;
}

function refusal(set: FileDescriptorSet): string {
  try {
    loadDescriptorSet(toBinary(FileDescriptorSetSchema, set), 'new.binpb');
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return (e as Error).message;
  }
  throw new Error('the set was accepted');
}

const order = (file: FileDescriptorProto) => file.messageType[0]!;

describe('validateDescriptorSet: what protoc would refuse', () => {
  it('accepts the valid set', () => {
    expect(validateDescriptorSet(buildSet())).toBeUndefined();
    expect(() => loadDescriptorSet(toBinary(FileDescriptorSetSchema, buildSet()), 'new.binpb')).not.toThrow();
  });

  it.each([
    [0, 'has number 0; protoc requires field numbers from 1 to 536,870,911'],
    [-5, 'has number -5; protoc requires field numbers from 1 to 536,870,911'],
    [536_870_912, 'has number 536870912; protoc requires field numbers from 1 to 536,870,911'],
    [19_500, 'has number 19500; numbers 19,000 to 19,999 are reserved for the Protobuf implementation'],
  ])('field number %d', (n, detail) => {
    const message = refusal(buildSet((f) => (order(f).field[0]!.number = n)));
    expect(message).toBe(
      `Invalid descriptor set (protoc would refuse it): Field demo.Order.id ${detail} — at new.binpb, offset 0 (0x0) [descriptor set / demo/order.proto / message Order / field id]`,
    );
  });

  it('a number or name the message reserves', () => {
    expect(refusal(buildSet((f) => (order(f).field[1]!.number = 15)))).toContain('Field demo.Order.note uses number 15, which demo.Order reserves');
    expect(refusal(buildSet((f) => (order(f).field[1]!.name = 'legacy')))).toContain(
      'Field demo.Order.legacy uses the name "legacy", which demo.Order reserves',
    );
  });

  it('two fields with one number, or one name', () => {
    expect(refusal(buildSet((f) => (order(f).field[1]!.number = 1)))).toContain(
      'Fields id and note of demo.Order both have number 1 — at new.binpb, offset 0 (0x0) [descriptor set / demo/order.proto / message Order / field note]',
    );
    expect(refusal(buildSet((f) => (order(f).field[1]!.name = 'id')))).toContain(
      'demo.Order.id is declared twice as a field, in demo/order.proto; protoc requires every full name to be declared once',
    );
  });

  it('types and labels outside their enums, written as numbers', () => {
    // protobuf-es keeps a closed-enum value it does not know among the unknown fields; written as such, it is read back so
    for (const [type, shown] of [
      [19, 'type 19'],
      [255, 'type 255'],
    ] as const) {
      expect(refusal(buildSet((f) => (order(f).field[0]!.type = type as FieldDescriptorProto_Type)))).toContain(
        `Field demo.Order.id has ${shown}; expected a FieldDescriptorProto.Type from 1 to 18, as protoc and buf write it`,
      );
    }
    expect(refusal(buildSet((f) => delete (order(f).field[0] as { type?: number }).type))).toContain('Field demo.Order.id has no type;');
    expect(refusal(buildSet((f) => (order(f).field[0]!.label = 0 as FieldDescriptorProto_Label)))).toContain(
      'Field demo.Order.id has label 0; expected a FieldDescriptorProto.Label from 1 to 3',
    );
  });

  it('an enum used as a message type, a message type that names nothing, an empty type name', () => {
    expect(refusal(buildSet((f) => (order(f).field[3]!.typeName = '.demo.Status')))).toContain(
      'Field demo.Order.item has TYPE_MESSAGE, but .demo.Status is an enum (declared in demo/order.proto), not a message — at new.binpb, offset 0 (0x0) [descriptor set / demo/order.proto / message Order / field item]',
    );
    expect(refusal(buildSet((f) => (order(f).field[2]!.typeName = '.demo.Order')))).toContain(
      'Field demo.Order.status has TYPE_ENUM, but .demo.Order is a message',
    );
    expect(refusal(buildSet((f) => (order(f).field[3]!.typeName = '.demo.Nothing')))).toContain(
      'Field demo.Order.item has type .demo.Nothing, which no file of the set declares',
    );
    expect(refusal(buildSet((f) => (order(f).field[3]!.typeName = '')))).toContain('Field demo.Order.item has TYPE_MESSAGE but an empty type name');
    expect(refusal(buildSet((f) => (order(f).field[3]!.typeName = 'Order.Item')))).toContain('has the relative type name "Order.Item"');
  });

  it('a message and an enum with the same name, a message declared twice, enum values in one scope', () => {
    expect(refusal(buildSet((f) => (f.enumType[0]!.name = 'Order')))).toContain(
      'demo.Order is declared as a message and as an enum, in demo/order.proto; protoc requires every full name to be declared once — at new.binpb, offset 0 (0x0) [descriptor set / demo/order.proto / enum Order]',
    );
    expect(refusal(buildSet((f) => f.messageType.push(order(f))))).toContain('demo.Order is declared twice as a message');
    expect(
      refusal(buildSet((f) => f.enumType.push(create(EnumDescriptorProtoSchema, { name: 'Other', value: [{ name: 'STATUS_UNKNOWN', number: 0 }] })))),
    ).toContain(
      'demo.STATUS_UNKNOWN is declared twice as an enum value, in demo/order.proto; protoc requires every full name to be declared once; enum values are scoped like C++ enumerators',
    );
  });

  it('enums: no values, a proto3 first value other than 0, an alias without allow_alias', () => {
    expect(refusal(buildSet((f) => (f.enumType[0]!.value = [])))).toContain('Enum demo.Status has no values; protoc requires at least one');
    expect(refusal(buildSet((f) => (f.enumType[0]!.value[0]!.number = 5)))).toContain('The first value of enum demo.Status is 5; proto3 requires it to be 0');
    expect(refusal(buildSet((f) => (f.enumType[0]!.value[1]!.number = 0)))).toContain(
      'Enum demo.Status gives number 0 to both STATUS_UNKNOWN and STATUS_OPEN without allow_alias',
    );
  });

  it('names, oneof indexes and ranges', () => {
    expect(refusal(buildSet((f) => (order(f).field[0]!.name = 'bad-name')))).toContain(
      'The field name "bad-name" in demo.Order is not made of letters, digits and underscores only',
    );
    expect(refusal(buildSet((f) => (order(f).field[0]!.oneofIndex = 2)))).toContain(
      'Field demo.Order.id has oneof index 2, but demo.Order declares 0 oneof(s)',
    );
    expect(refusal(buildSet((f) => (order(f).reservedRange = [create(DescriptorProto_ReservedRangeSchema, { start: 30, end: 30 })])))).toContain(
      'Reserved range 30 to 29 of demo.Order is not within 1 to 536,870,911',
    );
  });

  it('locates a problem in a later file at that file entry', () => {
    const set = buildSet();
    set.file.push(
      create(FileDescriptorSetSchema, {
        file: [
          {
            name: 'demo/more.proto',
            package: 'demo',
            syntax: 'proto3',
            messageType: [{ name: 'More', field: [{ name: 'x', number: 0, type: INT32, label: OPTIONAL }] }],
          },
        ],
      }).file[0]!,
    );
    const firstFileLength = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [set.file[0]!] })).length;
    expect(refusal(set)).toContain(
      `Field demo.More.x has number 0; protoc requires field numbers from 1 to 536,870,911 — at new.binpb, offset ${firstFileLength} (0x${firstFileLength.toString(16)}) [descriptor set / demo/more.proto / message More / field x]`,
    );
  });

  it('stays linear with many reserved ranges and fields', () => {
    const set = buildSet((f) => {
      const m = order(f);
      m.reservedRange = Array.from({ length: 100_000 }, (_, i) => create(DescriptorProto_ReservedRangeSchema, { start: 20_000 + 2 * i, end: 20_001 + 2 * i }));
      m.field = Array.from({ length: 100_000 }, (_, i) =>
        Object.assign(clone(FieldDescriptorProtoSchema, m.field[0]!), { name: `f${i}`, number: 20_001 + 2 * i }),
      );
    });
    expect(validateDescriptorSet(set)).toBeUndefined();
    set.file[0]!.messageType[0]!.field[99_999]!.number = 20_000 + 2 * 99_999;
    expect(validateDescriptorSet(set)?.detail).toBe(`Field demo.Order.f99999 uses number ${20_000 + 2 * 99_999}, which demo.Order reserves`);
  });
});
