/**
 * normalizeForComparison without deep clones: the result must equal what a deep clone + in-place
 * normalization produced before (byte for byte), must leave its input untouched, and is remembered
 * per set object (a normalized set normalizes to itself).
 */
import { clone, create, toBinary } from '@bufbuild/protobuf';
import {
  FieldDescriptorProto_Label as L,
  FieldDescriptorProto_Type as T,
  FileDescriptorSetSchema,
  type DescriptorProto,
  type FileDescriptorSet,
} from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { indexDeclarations } from './index-declarations';
import { deriveJsonName, normalizeForComparison } from './normalize-for-comparison';
import { evaluateSchemaChange } from '../rules/evaluate-schema-change';
import { normalizeForExactRule } from '../rules/evaluate-exact-rule';
import { copyDescriptorMessage } from './copy-descriptor-message';
import { isSet } from './normalize-for-comparison';

function sampleSet(): FileDescriptorSet {
  const set = create(FileDescriptorSetSchema, {
    file: [
      {
        name: 'a.proto',
        package: 'p',
        syntax: 'proto3',
        sourceCodeInfo: { location: [{ path: [4, 0], span: [1, 2, 3] }] },
        extension: [{ name: 'ext_one', number: 100, type: T.INT32, label: L.OPTIONAL, extendee: '.p.Outer', jsonName: 'extOne' }],
        messageType: [
          {
            name: 'Outer',
            field: [
              { name: 'user_id', number: 1, type: T.INT64, label: L.OPTIONAL, jsonName: 'userId' },
              { name: 'custom_json', number: 2, type: T.STRING, label: L.OPTIONAL, jsonName: 'somethingElse' },
              { name: 'plain', number: 3, type: T.STRING, label: L.OPTIONAL },
            ],
            nestedType: [{ name: 'Inner', field: [{ name: 'deep_value', number: 1, type: T.BOOL, label: L.OPTIONAL, jsonName: 'deepValue' }] }],
          },
        ],
      },
      { name: 'b.proto', package: 'q', syntax: 'proto3', dependency: ['a.proto'], messageType: [{ name: 'Other', field: [] }] },
    ],
  } as never);
  // create() takes no unknown fields: buf's image extension (8042) and one foreign unknown field
  set.file[0].$unknown = [
    { no: 8042, wireType: 2, data: new Uint8Array([1, 2]) },
    { no: 9000, wireType: 0, data: new Uint8Array([7]) },
  ];
  return set;
}

/** The normalization as it was written before: deep clone, then edit the clone in place. */
function normalizeByDeepClone(set: FileDescriptorSet): FileDescriptorSet {
  const copy = clone(FileDescriptorSetSchema, set);
  const dropJson = (f: { name: string; jsonName?: string }): void => {
    if (isSet(f, 'jsonName') && f.jsonName === deriveJsonName(f.name)) delete f.jsonName;
  };
  const visit = (m: DescriptorProto): void => {
    for (const f of [...m.field, ...m.extension]) dropJson(f);
    m.nestedType.forEach(visit);
  };
  for (const file of copy.file) {
    file.sourceCodeInfo = undefined;
    if (file.$unknown) {
      const kept = file.$unknown.filter((u) => u.no !== 8042);
      file.$unknown = kept.length > 0 ? kept : undefined;
    }
    file.messageType.forEach(visit);
    file.extension.forEach(dropJson);
  }
  return copy;
}

describe('normalizeForComparison (structural sharing, no deep clone)', () => {
  it('encodes exactly like the deep-clone normalization', () => {
    const set = sampleSet();
    const expected = toBinary(FileDescriptorSetSchema, normalizeByDeepClone(sampleSet()));
    expect(toBinary(FileDescriptorSetSchema, normalizeForComparison(set))).toEqual(expected);
  });

  it('drops derived json names, source info and the buf image extension, keeps the rest', () => {
    const n = normalizeForComparison(sampleSet());
    const outer = n.file[0].messageType[0];
    expect(outer.field.map((f) => (isSet(f, 'jsonName') ? f.jsonName : '(unset)'))).toEqual(['(unset)', 'somethingElse', '(unset)']);
    expect(isSet(outer.nestedType[0].field[0], 'jsonName')).toBe(false);
    expect(isSet(n.file[0].extension[0], 'jsonName')).toBe(false);
    expect(n.file[0].sourceCodeInfo).toBeUndefined();
    expect(n.file[0].$unknown?.map((u) => u.no)).toEqual([9000]);
  });

  it('leaves its input untouched', () => {
    const set = sampleSet();
    const before = toBinary(FileDescriptorSetSchema, set);
    normalizeForComparison(set);
    expect(toBinary(FileDescriptorSetSchema, set)).toEqual(before);
    expect(set.file[0].messageType[0].field[0].jsonName).toBe('userId');
    expect(set.file[0].$unknown?.map((u) => u.no)).toEqual([8042, 9000]);
  });

  it('is remembered per set, a normalized set normalizes to itself, and indexes are built once per set', () => {
    const set = sampleSet();
    const n = normalizeForComparison(set);
    expect(normalizeForComparison(set)).toBe(n);
    expect(normalizeForComparison(n)).toBe(n);
    expect(indexDeclarations(n)).toBe(indexDeclarations(n));
    expect(indexDeclarations(n).byName.get('p.Outer.Inner')?.kind).toBe('message');
    expect(normalizeForExactRule(set, 'p.Outer')).toBe(normalizeForExactRule(set, 'p.Outer'));
    expect(normalizeForExactRule(set, 'p.Outer').file.map((f) => f.name)).toEqual(['a.proto']);
    expect(normalizeForExactRule(set, 'q.Other').file.map((f) => f.name)).toEqual(['a.proto', 'b.proto']);
    // the whole set already in import order is its own exact form, so the 0.x rule reuses the directional walk
    expect(normalizeForExactRule(set, 'q.Other')).toBe(n);
    const other = sampleSet();
    const walk = evaluateSchemaChange(set, 'p.Outer', other, 'p.Outer');
    expect(evaluateSchemaChange(n, 'p.Outer', normalizeForComparison(other), 'p.Outer')).toBe(walk);
    expect(evaluateSchemaChange(set, 'p.Outer.Inner', other, 'p.Outer.Inner')).not.toBe(walk);
    expect(walk.reached.map((p) => p.saved.fullName)).toEqual(['p.Outer']);
  });
});

describe('copyDescriptorMessage', () => {
  it('keeps proto2 presence: own properties are set, deleting one falls back to the unset default', () => {
    const field = sampleSet().file[0].messageType[0].field[0];
    const copy = copyDescriptorMessage(field);
    expect(copy).not.toBe(field);
    expect(isSet(copy, 'jsonName')).toBe(true);
    delete (copy as { jsonName?: string }).jsonName;
    expect(isSet(copy, 'jsonName')).toBe(false);
    expect(copy.jsonName).toBe('');
    expect(field.jsonName).toBe('userId');
    expect(copy.$typeName).toBe('google.protobuf.FieldDescriptorProto');
  });
});
