/**
 * Unit tests of the compat module that need no buf build: descriptor-set loading errors (exact
 * messages), identity rules, Java class derivation, json_name derivation, value warnings and the diff.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Label as L, FieldDescriptorProto_Type as T, FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter, isDecodeError } from '../io';
import {
  buildSchemaDiff,
  DEFAULT_SETTINGS,
  deriveJavaClassName,
  evaluateStateCompatibility,
  createValueWarningCollector,
  finishValueWarnings,
  loadDescriptorSet,
} from '.';
import { deriveJsonName } from './descriptors/normalize-for-comparison';
import { evaluateIdentityRules } from './rules/evaluate-identity-rules';
import { evaluateSchemaChange } from './rules/evaluate-schema-change';
import { evaluateValueWarnings } from './rules/evaluate-value-warnings';
import { type ScannedValue } from './value-scan-types';

function set(files: { name: string; pkg?: string; deps?: string[]; options?: Record<string, unknown>; messages?: unknown[] }[]): FileDescriptorSet {
  return create(FileDescriptorSetSchema, {
    file: files.map((f) => ({
      name: f.name,
      package: f.pkg ?? 'example',
      dependency: f.deps ?? [],
      syntax: 'proto3',
      options: f.options,
      messageType: f.messages ?? [],
    })),
  } as never);
}

const EVENT_V1 = set([
  {
    name: 'event.proto',
    messages: [
      {
        name: 'Event',
        field: [
          { name: 'id', number: 1, type: T.INT32, label: L.OPTIONAL },
          { name: 'payload', number: 3, type: T.BYTES, label: L.OPTIONAL },
        ],
        reservedRange: [],
      },
      { name: 'Unused', field: [{ name: 'x', number: 1, type: T.INT32, label: L.OPTIONAL }] },
    ],
  },
]);
const EVENT_V2 = set([
  {
    name: 'event.proto',
    messages: [
      {
        name: 'Event',
        field: [
          { name: 'id', number: 1, type: T.INT32, label: L.OPTIONAL },
          { name: 'label', number: 2, type: T.STRING, label: L.OPTIONAL },
        ],
        reservedRange: [{ start: 3, end: 4 }],
      },
      { name: 'Unused', field: [{ name: 'x', number: 1, type: T.INT64, label: L.OPTIONAL }] },
    ],
  },
]);

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isDecodeError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a DecodeError');
}

describe('loadDescriptorSet', () => {
  it('rejects a file that is not a descriptor set, naming what it looks like', () => {
    const proto = new TextEncoder().encode('syntax = "proto3";\nmessage A {}\n');
    expect(errorOf(() => loadDescriptorSet(proto, 'a.proto'))).toEqual({
      code: 'not-recognised',
      message:
        'Expected a binary FileDescriptorSet (first byte 0x0a), found Protobuf source text (compile it with buf build -o x.binpb): 73 79 6e 74 61 78 20 3d — at a.proto, offset 0 (0x0) [descriptor set]',
    });
    expect(errorOf(() => loadDescriptorSet(new Uint8Array(), 'empty.binpb')).message).toBe(
      'Expected a binary FileDescriptorSet, found an empty file — at empty.binpb, offset 0 (0x0) [descriptor set]',
    );
  });
  it('tells a corrupt set apart from an unrecognised file', () => {
    const bytes = new ByteWriter().bytes([0x0a, 0x10]).finish(); // field 1, length 16, but nothing follows
    const r = errorOf(() => loadDescriptorSet(bytes, 'cut.binpb'));
    expect(r.code).toBe('invalid-value');
    expect(r.message).toMatch(/^Recognised as a FileDescriptorSet but corrupt: .+ — at cut\.binpb, offset 2 \(0x2\) \[descriptor set\]$/);
  });
  it('names a missing import and its importer', () => {
    const bytes = toBinary(FileDescriptorSetSchema, set([{ name: 'a.proto', deps: ['b.proto'] }]));
    expect(errorOf(() => loadDescriptorSet(bytes, 'new.binpb')).message).toBe(
      'Cannot find b.proto, imported by a.proto — at new.binpb, offset 0 (0x0) [descriptor set]',
    );
  });
  it('loads a set whose imports are listed after their importer', () => {
    const bytes = toBinary(FileDescriptorSetSchema, set([{ name: 'a.proto', deps: ['b.proto'] }, { name: 'b.proto' }]));
    expect(loadDescriptorSet(bytes, 'new.binpb').set.file.map((f) => f.name)).toEqual(['a.proto', 'b.proto']);
  });
});

describe('identity and settings rules', () => {
  const base = { savedRoot: 'example.Event', newRoot: 'example.Event', savedSettings: DEFAULT_SETTINGS, newSettings: DEFAULT_SETTINGS };
  it('generated state restored as DynamicMessage', () => {
    expect(evaluateIdentityRules({ ...base, savedKind: 'generated', newKind: 'dynamic', savedJavaClass: 'a.B' })[0]).toEqual({
      ruleId: 'TYPE_KIND_CHANGED',
      accepted: false,
      path: 'type kind',
      message: 'Saved generated state cannot be restored as dynamic',
      params: { oldKind: 'generated', newKind: 'dynamic' },
    });
  });
  it('DynamicMessage state compares no Java class; settings changes in both directions', () => {
    const findings = evaluateIdentityRules({
      ...base,
      savedKind: 'dynamic',
      newKind: 'dynamic',
      newSettings: { deterministicSerialization: true, maxMessageSize: 1024, recursionLimit: 200, largePayloadAliasing: false },
    });
    expect(findings.map((f) => [f.ruleId, f.accepted, f.message])).toEqual([
      ['MAX_MESSAGE_SIZE_DECREASED', false, 'maxMessageSize decreases from 67108864 to 1024'],
      ['RECURSION_LIMIT_INCREASED', true, 'recursionLimit increases from 100 to 200'],
      ['DETERMINISTIC_SERIALIZATION_CHANGED', true, 'deterministicSerialization changes from false to true'],
      ['LARGE_PAYLOAD_ALIASING_CHANGED', true, 'largePayloadAliasing changes from true to false'],
    ]);
  });
});

describe('target line', () => {
  it('a 1.x snapshot with target 0.x is not-restorable (downgrade)', () => {
    const r = evaluateStateCompatibility(
      {
        savedSet: EVENT_V1,
        savedRoot: 'example.Event',
        savedJavaClass: 'a.B',
        savedKind: 'generated',
        savedSettings: DEFAULT_SETTINGS,
        snapshotClass: 'x.V1Snapshot',
        savedLine: '1.x',
      },
      { newSet: EVENT_V1, newRoot: 'example.Event', newKind: 'generated', newJavaClass: 'a.B', newSettings: DEFAULT_SETTINGS, target: '0.x' },
    );
    expect(r.verdict).toBe('not-restorable');
    expect(r.firstIncompatibility?.message).toBe('x.V1Snapshot (1.x) cannot be read by target 0.x: downgrades are not supported');
  });
  it('0.x: a file the root newly reaches (an import that declares nothing reached) is named, not the whole file sets', () => {
    const saved = set([{ name: 'event.proto', messages: [{ name: 'Event', field: [{ name: 'id', number: 1, type: T.INT32, label: L.OPTIONAL }] }] }]);
    const withImport = set([
      { name: 'extra.proto', pkg: 'other', messages: [{ name: 'Extra' }] },
      { name: 'event.proto', deps: ['extra.proto'], messages: [{ name: 'Event', field: [{ name: 'id', number: 1, type: T.INT32, label: L.OPTIONAL }] }] },
    ]);
    const side = {
      savedRoot: 'example.Event',
      savedJavaClass: 'a.B',
      savedKind: 'generated',
      savedSettings: DEFAULT_SETTINGS,
      snapshotClass: 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
      savedLine: '0.x',
    } as const;
    const newSide = { newRoot: 'example.Event', newKind: 'generated', newJavaClass: 'a.B', newSettings: DEFAULT_SETTINGS, target: '0.x' } as const;
    const added = evaluateStateCompatibility({ ...side, savedSet: saved }, { ...newSide, newSet: withImport });
    expect(added.verdict).toBe('incompatible');
    expect(added.firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): the root now also reaches extra.proto',
    );
    const dropped = evaluateStateCompatibility({ ...side, savedSet: withImport }, { ...newSide, newSet: saved });
    expect(dropped.firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): the root no longer reaches extra.proto',
    );
  });
  it('limit decreases fail with a reasonless StateMigrationException in Flink; the text names the limit', () => {
    const r = evaluateStateCompatibility(
      {
        savedSet: EVENT_V1,
        savedRoot: 'example.Event',
        savedJavaClass: 'a.B',
        savedKind: 'generated',
        savedSettings: DEFAULT_SETTINGS,
        snapshotClass: 'x.V1Snapshot',
        savedLine: '1.x',
      },
      {
        newSet: EVENT_V1,
        newRoot: 'example.Event',
        newKind: 'generated',
        newJavaClass: 'a.B',
        newSettings: { ...DEFAULT_SETTINGS, recursionLimit: 50 },
        target: '1.x',
      },
    );
    expect(r.failureText).toBe(
      'StateMigrationException: the new state serializer is incompatible with the old state serializer (Flink names no reason; the inspector found: recursionLimit decreases from 100 to 50)',
    );
  });
});

describe('deriveJavaClassName and deriveJsonName', () => {
  it('follows protoc: outer class from options or file name, $ for nesting, OuterClass on conflict', () => {
    const nested = [{ name: 'Event', nestedType: [{ name: 'Inner' }] }];
    expect(
      deriveJavaClassName(
        set([{ name: 'x/events.proto', options: { javaPackage: 'io.example', javaOuterClassname: 'Events' }, messages: nested }]),
        'example.Event.Inner',
      ),
    ).toBe('io.example.Events$Event$Inner');
    expect(deriveJavaClassName(set([{ name: 'my_event-v2.proto', messages: nested }]), 'example.Event')).toBe('example.MyEventV2$Event');
    expect(deriveJavaClassName(set([{ name: 'event.proto', messages: nested }]), 'example.Event')).toBe('example.EventOuterClass$Event');
    expect(
      deriveJavaClassName(set([{ name: 'event.proto', options: { javaMultipleFiles: true, javaPackage: 'io.x' }, messages: nested }]), 'example.Event.Inner'),
    ).toBe('io.x.Event$Inner');
  });
  it('derives json_name like protoc', () => {
    expect(deriveJsonName('user_name')).toBe('userName');
    expect(deriveJsonName('a__b_c1_d')).toBe('aBC1D');
    expect(deriveJsonName('already_Camel')).toBe('alreadyCamel');
  });
});

describe('value warnings', () => {
  const schema = evaluateSchemaChange(EVENT_V1, 'example.Event', EVENT_V2, 'example.Event');
  it('finds saved unknown fields that the added field will read, with count and keys', () => {
    const values: ScannedValue[] = [
      { key: 'k1', payloadSize: 10, depth: 0, unknownFields: [{ message: 'example.Event', number: 2, wireType: 2 }], knownFields: [] },
      { key: 'k2', payloadSize: 10, depth: 0, unknownFields: [{ message: 'example.Event', number: 2, wireType: 0 }], knownFields: [] },
      {
        key: 'k3',
        payloadSize: 10,
        depth: 0,
        unknownFields: [{ message: 'example.Event', number: 2, wireType: 2 }],
        knownFields: [{ message: 'example.Event', number: 3, wireType: 2, bytes: true }],
      },
    ];
    const warnings = evaluateValueWarnings(values, schema, DEFAULT_SETTINGS);
    expect(warnings[0]).toEqual({
      ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD',
      message:
        '2 saved value(s) carry unknown field 2 in example.Event, which the new schema declares as label: the new parser reads the retained bytes as that field',
      params: { count: 2, number: 2, message: 'example.Event', name: 'label' },
      count: 2,
      keys: ['k1', 'k3'],
      location: { message: 'example.Event', number: 2 },
    });
    expect(warnings[1]).toMatchObject({ ruleId: 'REMOVED_FIELD_RETAINED', count: 1, keys: ['k3'] });
    expect(warnings).toHaveLength(2);
  });
  it('an unknown field reusing a retained declared number with an accepted wire type; other wire types stay unknown', () => {
    const values: ScannedValue[] = [
      { key: 'a', payloadSize: 5, depth: 0, unknownFields: [{ message: 'example.Event', number: 1, wireType: 0 }], knownFields: [] },
      { key: 'b', payloadSize: 5, depth: 0, unknownFields: [{ message: 'example.Event', number: 1, wireType: 5 }], knownFields: [] },
    ];
    expect(evaluateValueWarnings(values, schema, DEFAULT_SETTINGS)).toEqual([
      {
        ruleId: 'UNKNOWN_REUSES_DECLARED_NUMBER',
        message:
          '1 saved value(s) carry unknown field 1 (VARINT) in example.Event, whose declared field id accepts that wire type: the serializer rejects such a value on write',
        params: { count: 1, number: 1, wireType: 'VARINT', message: 'example.Event', name: 'id' },
        count: 1,
        keys: ['a'],
        location: { message: 'example.Event', number: 1 },
      },
    ]);
  });
  it('reports values over the new limits and large aliased payloads', () => {
    const big: ScannedValue = {
      key: 'big',
      payloadSize: 5000,
      depth: 7,
      unknownFields: [{ message: 'example.Event', number: 600_000_000, wireType: 2 }],
      knownFields: [],
    };
    const warnings = evaluateValueWarnings([big], schema, { ...DEFAULT_SETTINGS, maxMessageSize: 4999, recursionLimit: 5 });
    expect(warnings.map((w) => w.message)).toEqual([
      '1 saved value(s) carry unknown field number 600000000 in example.Event, above 536,870,911: rejected on write',
      '1 saved value(s) exceed the new maxMessageSize of 4999 (largest: 5000): the new reader fails on them',
      '1 saved value(s) exceed the new recursionLimit of 5 (largest: 7): the new reader fails on them',
      '1 saved value(s) above 4 KiB hold bytes fields or unknown length-delimited fields that would share the payload array under large-payload aliasing (largest payload: 5000 bytes)',
    ]);
  });
});

describe('value warning tallies (check scans subtasks in parallel and merges their tallies)', () => {
  const schema = evaluateSchemaChange(EVENT_V1, 'example.Event', EVENT_V2, 'example.Event');
  // unknown fields 2 (declared by the new schema) / 9 (not), field 3 (bytes), sizes and depths around the new limits
  const value = fc.record({
    unknown: fc.subarray([2, 9, 600_000_000]),
    wireType: fc.constantFrom(0, 2, 5),
    bytes: fc.boolean(),
    payloadSize: fc.integer({ min: 1, max: 9000 }),
    depth: fc.integer({ min: 0, max: 8 }),
  });
  it('tallies of consecutive runs of values, merged in order, give what one collector fed every value gives (counts, largest, first 20 keys)', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 80 }), fc.array(fc.nat(), { maxLength: 4 }), (shapes, cuts) => {
        const values: ScannedValue[] = shapes.map((v, i) => ({
          key: `k${i}`,
          payloadSize: v.payloadSize,
          depth: v.depth,
          unknownFields: v.unknown.map((number) => ({ message: 'example.Event', number, wireType: v.wireType })),
          knownFields: v.bytes ? [{ message: 'example.Event', number: 3, wireType: 2, bytes: true }] : [],
        }));
        const settings = { ...DEFAULT_SETTINGS, maxMessageSize: 8000, recursionLimit: 6 };
        const whole = evaluateValueWarnings(values, schema, settings);
        const bounds = [0, ...cuts.map((c) => c % (values.length + 1)).sort((a, b) => a - b), values.length];
        const tallies = bounds.slice(1).map((end, i) => {
          const collector = createValueWarningCollector(schema, settings);
          for (const v of values.slice(bounds[i], end)) collector.add(v);
          return collector.tally();
        });
        expect(finishValueWarnings(tallies)).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
  it('keeps the first 20 keys in scan order across tallies', () => {
    const hit = (key: string): ScannedValue => ({
      key,
      payloadSize: 10,
      depth: 0,
      unknownFields: [{ message: 'example.Event', number: 2, wireType: 2 }],
      knownFields: [],
    });
    const first = createValueWarningCollector(schema, DEFAULT_SETTINGS);
    const second = createValueWarningCollector(schema, DEFAULT_SETTINGS);
    for (let i = 0; i < 15; i++) first.add(hit(`a${i}`));
    for (let i = 0; i < 15; i++) second.add(hit(`b${i}`));
    const [warning] = finishValueWarnings([first.tally(), second.tally()]);
    expect(warning!.count).toBe(30);
    expect(warning!.keys).toEqual([...Array.from({ length: 15 }, (_, i) => `a${i}`), ...Array.from({ length: 5 }, (_, i) => `b${i}`)]);
  });
});

describe('schema diff', () => {
  it('puts reached declarations side by side and marks unreached changes as not affecting the verdict', () => {
    const diff = buildSchemaDiff(evaluateSchemaChange(EVENT_V1, 'example.Event', EVENT_V2, 'example.Event'));
    expect(diff.declarations).toHaveLength(1);
    const event = diff.declarations[0];
    expect(event).toMatchObject({ savedName: 'example.Event', status: 'changed', affectsVerdict: true });
    expect(event.findings.map((f) => f.ruleId)).toEqual(['FIELD_REMOVED_RESERVED', 'FIELD_ADDED', 'RESERVATION_ADDED']);
    expect(event.rows.find((r) => r.kind === 'field' && r.key === '2')).toEqual({
      kind: 'field',
      key: '2',
      new: { number: '2', name: 'label', type: 'STRING', label: 'singular' },
    });
    expect(diff.unreached).toHaveLength(1);
    expect(diff.unreached[0]).toMatchObject({ savedName: 'example.Unused', affectsVerdict: false, status: 'changed' });
    expect(diff.unreached[0].findings[0]).toMatchObject({
      ruleId: 'FIELD_TYPE_CHANGED',
      unreached: true,
      message: 'Field 1 (x) of example.Unused changes type from INT32 to INT64',
    });
  });
});
