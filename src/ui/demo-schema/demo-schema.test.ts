import { readFileSync } from 'node:fs';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';

const set = fromBinary(FileDescriptorSetSchema, readFileSync(new URL('./events-changed.binpb', import.meta.url)));

describe('the demo schema (events-changed.binpb)', () => {
  it('holds the two fixture files, without source info', () => {
    expect(set.file.map((f) => f.name)).toEqual(['fixtures/common.proto', 'fixtures/events.proto']);
    expect(set.file.every((f) => f.sourceCodeInfo === undefined)).toBe(true);
  });

  it('adds Event.legacy_score = 100 (int64) and turns Detail.code into int32', () => {
    const events = set.file.find((f) => f.name === 'fixtures/events.proto')!;
    const event = events.messageType.find((m) => m.name === 'Event')!;
    const added = event.field.find((f) => f.number === 100)!;
    expect([added.name, added.type]).toEqual(['legacy_score', FieldDescriptorProto_Type.INT64]);
    const common = set.file.find((f) => f.name === 'fixtures/common.proto')!;
    const code = common.messageType.find((m) => m.name === 'Detail')!.field.find((f) => f.number === 2)!;
    expect([code.name, code.type]).toEqual(['code', FieldDescriptorProto_Type.INT32]);
  });
});
