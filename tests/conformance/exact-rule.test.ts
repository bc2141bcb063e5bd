/**
 * The 0.x exact rule reproduces the serializer's own verdicts,
 * with the `Envelope` closure compiled by buf. Settings are (deterministic, maxMessageSize, recursionLimit).
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, SourceCodeInfoSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateStateCompatibility, type SerializerSettings, type StateCompatibility } from '../../src/core/compat';
import { buildDescriptorSet } from './build-descriptor-set';

const DEPENDENCY = (option = '') => `syntax = "proto3";
package flink.protobuf.snapshot;
option java_package = "io.github.flink.gcp.protobuf.snapshotgenerated";
option java_outer_classname = "SnapshotDependencies";
${option}message Detail { string text = 1; }
`;
const SNAPSHOT = (fields: string, kind = 'UNKNOWN = 0; READY = 1;') => `syntax = "proto3";
package flink.protobuf.snapshot;
import "snapshot_dependency.proto";
option java_package = "io.github.flink.gcp.protobuf.snapshotgenerated";
option java_outer_classname = "SnapshotMessages";
message Envelope {
${fields}
  message Nested { string text = 1; }
  enum Kind { ${kind} }
}
`;
const FIELDS = `  int32 id = 1;
  Detail detail = 2;
  Envelope child = 3;
  Kind kind = 4;
  Nested nested = 5;`;
const CLASS = 'io.github.flink.gcp.protobuf.snapshotgenerated.SnapshotMessages$Envelope';
const ROOT = 'flink.protobuf.snapshot.Envelope';

const s = (deterministicSerialization: boolean, maxMessageSize: number, recursionLimit: number): SerializerSettings => ({
  deterministicSerialization,
  maxMessageSize,
  recursionLimit,
});

let original: FileDescriptorSet;
let originalBytes: Uint8Array;
const variants = new Map<string, FileDescriptorSet>();

function evaluate(
  saved: FileDescriptorSet,
  opts: { savedSettings?: SerializerSettings; newSettings?: SerializerSettings; savedClass?: string; savedRoot?: string } = {},
): StateCompatibility {
  return evaluateStateCompatibility(
    {
      savedSet: saved,
      savedRoot: opts.savedRoot ?? ROOT,
      savedJavaClass: opts.savedClass ?? CLASS,
      savedKind: 'generated',
      savedSettings: opts.savedSettings ?? s(false, 100, 10),
      snapshotClass: 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
      savedLine: '0.x',
    },
    { newSet: original, newRoot: ROOT, newKind: 'generated', newSettings: opts.newSettings ?? s(false, 100, 10), target: '0.x' },
  );
}

describe('0.x exact rule', () => {
  beforeAll(async () => {
    originalBytes = await buildDescriptorSet({ 'snapshot.proto': SNAPSHOT(FIELDS), 'snapshot_dependency.proto': DEPENDENCY() });
    original = fromBinary(FileDescriptorSetSchema, originalBytes);
    const build = async (name: string, files: Record<string, string>) =>
      variants.set(name, fromBinary(FileDescriptorSetSchema, await buildDescriptorSet(files, { excludeSourceInfo: true, asFileDescriptorSet: true })));
    await build('plain', { 'snapshot.proto': SNAPSHOT(FIELDS), 'snapshot_dependency.proto': DEPENDENCY() });
    await build('B7', { 'snapshot.proto': SNAPSHOT(FIELDS), 'snapshot_dependency.proto': DEPENDENCY('option deprecated = true;\n') });
    await build('B8', { 'snapshot.proto': SNAPSHOT(FIELDS.replace('int32 id', 'int32 renamed')), 'snapshot_dependency.proto': DEPENDENCY() });
    await build('B9', { 'snapshot.proto': SNAPSHOT(FIELDS.replace('  int32 id = 1;\n', '')), 'snapshot_dependency.proto': DEPENDENCY() });
    await build('B10', { 'snapshot.proto': SNAPSHOT(FIELDS, 'UNKNOWN = 0; READY = 1; ADDED = 2;'), 'snapshot_dependency.proto': DEPENDENCY() });
  });

  it('B1: compatible as is iff size ≥ 100 and depth ≥ 10, deterministic flag ignored', () => {
    for (const det of [false, true]) {
      for (const size of [99, 100, 101]) {
        for (const depth of [9, 10, 11]) {
          const r = evaluate(variants.get('plain')!, { savedSettings: s(!det, 100, 10), newSettings: s(det, size, depth) });
          expect(r.verdict, `${det} ${size} ${depth}`).toBe(size >= 100 && depth >= 10 ? 'compatible' : 'incompatible');
        }
      }
    }
    expect(evaluate(variants.get('plain')!, { newSettings: s(false, 99, 10) }).firstIncompatibility?.message).toBe('maxMessageSize decreases from 100 to 99');
  });
  it('B2: raising both limits and the flag is compatible', () => {
    expect(evaluate(variants.get('plain')!, { newSettings: s(true, 200, 20) }).verdict).toBe('compatible');
  });
  it('B3: lowering either limit after a raise is incompatible', () => {
    for (const next of [s(false, 100, 20), s(false, 200, 10), s(false, 100, 10)]) {
      expect(evaluate(variants.get('plain')!, { savedSettings: s(true, 200, 20), newSettings: next }).verdict).toBe('incompatible');
    }
    expect(evaluate(variants.get('plain')!, { savedSettings: s(true, 200, 20), newSettings: s(false, 200, 10) }).firstIncompatibility?.message).toBe(
      'recursionLimit decreases from 20 to 10',
    );
  });
  it('B4: a different Java class name is incompatible', () => {
    const r = evaluate(variants.get('plain')!, { savedClass: 'renamed.GeneratedClass' });
    expect(r.firstIncompatibility).toMatchObject({ ruleId: 'JAVA_CLASS_CHANGED', message: `Java class changes from renamed.GeneratedClass to ${CLASS}` });
  });
  it('B5: a different root full name is incompatible', () => {
    const r = evaluate(variants.get('plain')!, { savedRoot: 'flink.protobuf.snapshot.Envelope.Nested' });
    expect(r.firstIncompatibility).toMatchObject({
      ruleId: 'ROOT_RENAMED',
      message: `Root message changes from flink.protobuf.snapshot.Envelope.Nested to ${ROOT}`,
    });
  });
  it('B7: a dependency file option is incompatible', () => {
    expect(evaluate(variants.get('B7')!).firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): File snapshot_dependency.proto changes options: deprecated: true → unset',
    );
  });
  it('B8: a renamed first field is incompatible', () => {
    expect(evaluate(variants.get('B8')!).firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Field 1 (renamed) of flink.protobuf.snapshot.Envelope is renamed to id',
    );
  });
  // B9 and B10 evaluate the variant as the SAVED schema against the unchanged one as the new: the new schema adds
  // field 1 (the saved one lacks it) and removes enum value 2 (the saved one has it)
  it('B9: a first field added by the new schema is incompatible under 0.x', () => {
    const r = evaluate(variants.get('B9')!);
    expect(r.verdict).toBe('incompatible');
    expect(r.firstIncompatibility?.ruleId).toBe('EXACT_SCHEMA_CHANGED');
    expect(r.firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Field 1 (id) is added to flink.protobuf.snapshot.Envelope',
    );
  });
  it('B10: an enum value removed by the new schema is incompatible under 0.x', () => {
    const r = evaluate(variants.get('B10')!);
    expect(r.verdict).toBe('incompatible');
    expect(r.firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Enum value 2 (ADDED) of flink.protobuf.snapshot.Envelope.Kind is removed',
    );
  });
  it('B11: an unknown field on the set is incompatible', () => {
    const saved = fromBinary(FileDescriptorSetSchema, variantBytes('plain'));
    saved.$unknown = [{ no: 1000, wireType: 0, data: new Uint8Array([7]) }];
    expect(evaluate(saved).firstIncompatibility?.message).toBe(
      'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): the descriptor set differs in its unknown fields',
    );
  });
  it('B12: reversed files plus SourceCodeInfo are compatible', () => {
    const saved = fromBinary(FileDescriptorSetSchema, variantBytes('plain'));
    saved.file.reverse();
    saved.file[0].sourceCodeInfo = create(SourceCodeInfoSchema, { location: [{ path: [4, 0], span: [1, 2, 3], leadingComments: ' hi' }] });
    expect(evaluate(saved).verdict).toBe('compatible');
  });
  it('B13: a non-minimal tag encoding decodes to the same set and is compatible', () => {
    const bytes = variantBytes('plain');
    expect(bytes[0]).toBe(0x0a);
    const nonMinimal = new Uint8Array([0x8a, 0x00, ...bytes.subarray(1)]);
    expect(evaluate(fromBinary(FileDescriptorSetSchema, nonMinimal)).verdict).toBe('compatible');
  });
  it('0.x state with target 1.x is not-restorable, with the directional answer as a planning aid', () => {
    const r = evaluateStateCompatibility(
      {
        savedSet: variants.get('B10')!,
        savedRoot: ROOT,
        savedJavaClass: CLASS,
        savedKind: 'generated',
        savedSettings: s(false, 100, 10),
        snapshotClass: 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
        savedLine: '0.x',
      },
      { newSet: original, newRoot: ROOT, newKind: 'generated', newSettings: s(false, 100, 10), target: '1.x' },
    );
    expect(r.verdict).toBe('not-restorable');
    expect(r.firstIncompatibility?.ruleId).toBe('TARGET_CANNOT_READ_SNAPSHOT');
    expect(r.planningAid?.verdict).toBe('incompatible');
    expect(r.planningAid?.firstIncompatibility?.message).toBe('Enum value 2 (ADDED) of flink.protobuf.snapshot.Envelope.Kind is removed');
  });
});

function variantBytes(name: string): Uint8Array {
  return toBinary(FileDescriptorSetSchema, variants.get(name)!);
}
