/**
 * The wording of findings a person has to act on (issue #19, "The findings"), on descriptor sets buf
 * compiles from .proto text: each case asserts every finding of the directional walk, rule id and exact
 * message, so a finding that blames an unchanged file, diffs an unrelated type, lists every retained
 * field or shows a custom option by number while its declaration is at hand fails here.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, evaluateStateCompatibility, loadDescriptorSet } from '../../src/core/compat';
import { formatRuleMessage } from '../../src/core/compat/rules';
import { buildDescriptorSet, mapLimited, type BuildOptions } from './build-descriptor-set';

interface WordingCase {
  name: string;
  saved: Record<string, string>;
  next: Record<string, string>;
  savedBuild?: BuildOptions;
  nextBuild?: BuildOptions;
  /** every finding, `[RULE_ID] message`, in walk order */
  findings: string[];
}

const HEADER = `syntax = "proto3";
package example;
option java_package = "io.example";
option java_outer_classname = "Events";
`;

const COMMON = `syntax = "proto3";
package common;
option java_package = "io.example.common";
message Detail { string text = 1; int32 n = 2; }
`;

const OTHER = `syntax = "proto3";
package other;
option java_package = "io.example.other";
message Info { int64 text = 1; repeated string tags = 4; }
`;

/** A message-typed custom option in the shape of protoc-gen-validate's `(validate.rules)`. */
const RULES_PROTO = `syntax = "proto3";
package validate;
import "google/protobuf/descriptor.proto";
message StringRules { uint64 min_len = 2; string pattern = 6; }
message FieldRules { StringRules string = 14; }
extend google.protobuf.FieldOptions { FieldRules rules = 1071; }
extend google.protobuf.MessageOptions { string label = 50001; }
`;

const withRules = (nameOptions: string, messageOption = ''): Record<string, string> => ({
  'validate.proto': RULES_PROTO,
  'event.proto': `${HEADER}import "validate.proto";\nmessage Event {\n${messageOption}  int32 id = 1;\n  string name = 5${nameOptions};\n}\n`,
});

/** `int32 fN = N;` lines in the given order. */
const fields = (order: number[]): string => order.map((i) => `  int32 f${i} = ${i};`).join('\n');

const CASES: WordingCase[] = [
  {
    name: "a field's type moves to a type of another file: one type-name finding, no file blamed",
    saved: {
      'common.proto': COMMON,
      'event.proto': `${HEADER}import "common.proto";\nmessage Event {\n  int32 id = 1;\n  common.Detail detail = 3;\n}\n`,
    },
    next: {
      'common.proto': COMMON,
      'other.proto': OTHER,
      'event.proto': `${HEADER}import "common.proto";\nimport "other.proto";\nmessage Event {\n  int32 id = 1;\n  other.Info detail = 3;\n}\nmessage Keep { common.Detail d = 1; }\n`,
    },
    findings: ['[FIELD_TYPE_NAME_CHANGED] Field 3 (detail) of example.Event changes type from common.Detail to other.Info'],
  },
  {
    name: 'a field replaced by an unrelated one (other name, other type) is a removal and an addition at a reused number, not a rename',
    saved: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  int32 count = 2;\n}\n` },
    next: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  repeated string labels = 2;\n}\n` },
    findings: [
      '[FIELD_NUMBER_REUSED] Field 2 (count, INT32) of example.Event is removed and field 2 (labels, STRING) is added in its place: the number is reused, so the new parser reads the saved count data as labels',
    ],
  },
  {
    name: 'a message field replaced by an unrelated one of another message type: removed and added, not renamed',
    saved: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  Detail detail = 3;\n}\nmessage Detail { string text = 1; }\n` },
    next: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  Info info = 3;\n}\nmessage Info { int64 text = 1; }\n` },
    findings: [
      '[FIELD_NUMBER_REUSED] Field 3 (detail, example.Detail) of example.Event is removed and field 3 (info, example.Info) is added in its place: the number is reused, so the new parser reads the saved detail data as info',
    ],
  },
  {
    name: 'a field renamed with its type kept stays a rename',
    saved: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  int32 count = 2;\n}\n` },
    next: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  repeated int32 counts = 2;\n}\n` },
    findings: [
      '[FIELD_CARDINALITY_CHANGED] Field 2 (count) of example.Event changes cardinality from singular to repeated',
      '[FIELD_RENAMED] Field 2 (count) of example.Event is renamed to counts',
    ],
  },
  {
    name: 'a renamed message type is reported once, not diffed field by field against the new type',
    saved: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  Detail detail = 3;\n}\nmessage Detail { string text = 1; int32 n = 2; }\n` },
    next: {
      'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  Info detail = 3;\n}\nmessage Info { int64 text = 1; reserved 2; repeated string tags = 4; }\n`,
    },
    findings: ['[FIELD_TYPE_NAME_CHANGED] Field 3 (detail) of example.Event changes type from example.Detail to example.Info'],
  },
  {
    name: 'a declaration that moves to another file is compared with that file, and both files are named',
    saved: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n  Detail detail = 3;\n}\nmessage Detail { string text = 1; }\n` },
    next: {
      'event.proto': `${HEADER}import "detail.proto";\nmessage Event {\n  int32 id = 1;\n  Detail detail = 3;\n}\n`,
      'detail.proto': `syntax = "proto3";\npackage example;\noption java_package = "io.example";\noption java_outer_classname = "Details";\nmessage Detail { string text = 1; }\n`,
    },
    findings: ['[FILE_OPTION_CHANGED] File event.proto (detail.proto in the new set) changes options: java_outer_classname: "Events" → "Details"'],
  },
  {
    name: 'FIELD_ORDER_CHANGED names the field that moved',
    saved: { 'event.proto': `${HEADER}message Event {\n${fields([1, 2, 3, 4])}\n}\n` },
    next: { 'event.proto': `${HEADER}message Event {\n${fields([2, 3, 4, 1])}\n}\n` },
    findings: ['[FIELD_ORDER_CHANGED] Fields of example.Event change order: 1 (f1) now comes after 4 (f4)'],
  },
  {
    name: 'FIELD_ORDER_CHANGED with 40 fields, two moved: only those two',
    saved: { 'event.proto': `${HEADER}message Event {\n${fields(Array.from({ length: 40 }, (_, i) => i + 1))}\n}\n` },
    next: {
      'event.proto': `${HEADER}message Event {\n${fields([...Array.from({ length: 40 }, (_, i) => i + 1).filter((i) => i !== 7 && i !== 20), 7, 20])}\n}\n`,
    },
    findings: ['[FIELD_ORDER_CHANGED] Fields of example.Event change order: 7 (f7) now comes after 40 (f40); 20 (f20) now comes after 7 (f7)'],
  },
  {
    name: 'ENUM_VALUE_ORDER_CHANGED names the value that moved',
    saved: { 'event.proto': `${HEADER}message Event {\n  Kind kind = 1;\n}\nenum Kind { UNKNOWN = 0; READY = 1; DONE = 2; LATE = 3; }\n` },
    next: { 'event.proto': `${HEADER}message Event {\n  Kind kind = 1;\n}\nenum Kind { UNKNOWN = 0; DONE = 2; LATE = 3; READY = 1; }\n` },
    findings: ['[ENUM_VALUE_ORDER_CHANGED] Values of example.Kind change order: READY now comes after LATE'],
  },
  {
    name: 'custom options are named after their declaration, leaf by leaf',
    saved: withRules(' [(validate.rules).string.min_len = 1]', '  option (validate.label) = "a";\n'),
    next: withRules(' [(validate.rules).string = { min_len: 3, pattern: "^x" }]', '  option (validate.label) = "b";\n'),
    findings: [
      '[MESSAGE_OPTION_CHANGED] Message example.Event changes options: (validate.label): "a" → "b"',
      '[FIELD_OPTION_CHANGED] Field 5 (name) of example.Event changes options: (validate.rules).string.min_len: 1 → 3; (validate.rules).string.pattern: unset → "^x"',
    ],
  },
  {
    name: 'a custom option declared only in the new set still reads by name on the saved side',
    saved: withRules(' [(validate.rules).string.min_len = 1]'),
    savedBuild: { excludeImports: true },
    next: withRules(' [(validate.rules).string.min_len = 3]'),
    findings: ['[FIELD_OPTION_CHANGED] Field 5 (name) of example.Event changes options: (validate.rules).string.min_len: 1 → 3'],
  },
  {
    name: 'a custom option declared in neither set is numbered, its content without the length prefix',
    saved: withRules(' [(validate.rules).string.min_len = 1]', '  option (validate.label) = "ab";\n'),
    savedBuild: { excludeImports: true },
    next: withRules(' [(validate.rules).string.min_len = 3]', '  option (validate.label) = "abc";\n'),
    nextBuild: { excludeImports: true },
    findings: [
      '[MESSAGE_OPTION_CHANGED] Message example.Event changes options: #50001: wire 2 0x6162 → wire 2 0x616263',
      '[FIELD_OPTION_CHANGED] Field 5 (name) of example.Event changes options: #1071: wire 2 0x72021001 → wire 2 0x72021003',
    ],
  },
  {
    name: 'options generated Java never reads: rejected, with why and what to do; Java options apart',
    saved: { 'event.proto': `${HEADER}message Event {\n  int32 id = 1;\n}\n` },
    next: {
      'event.proto': `${HEADER}option java_multiple_files = true;\noption csharp_namespace = "Example";\noption objc_class_prefix = "EX";\nmessage Event {\n  int32 id = 1;\n}\n`,
    },
    findings: [
      '[FILE_OPTION_CHANGED] File event.proto changes options: java_multiple_files: unset → true',
      '[FILE_NON_JAVA_OPTION_CHANGED] File event.proto changes options generated Java code never reads (csharp_namespace: unset → "Example"; objc_class_prefix: unset → "EX"); flink-datastream-protobuf rejects it all the same: its restore check compares the descriptors of every file the root reaches whole, options included, so any option change there fails the restore; revert the change to restore the state',
    ],
  },
];

const results = new Map<string, string[]>();

describe('finding wording (buf-built descriptor sets, directional rules)', () => {
  beforeAll(async () => {
    const evaluated = await mapLimited(CASES, 2, async (c) => {
      const savedBytes = await buildDescriptorSet(c.saved, { excludeSourceInfo: true, asFileDescriptorSet: true, ...c.savedBuild });
      const newBytes = await buildDescriptorSet(c.next, c.nextBuild);
      const r = evaluateStateCompatibility(
        {
          savedSet: fromBinary(FileDescriptorSetSchema, savedBytes),
          savedRoot: 'example.Event',
          savedKind: 'dynamic',
          savedSettings: DEFAULT_SETTINGS,
          snapshotClass: 'test.ProtobufSnapshot',
          savedLine: '1.x',
        },
        {
          newSet: c.nextBuild?.excludeImports ? fromBinary(FileDescriptorSetSchema, newBytes) : loadDescriptorSet(newBytes, 'new.binpb').set,
          newRoot: 'example.Event',
          newKind: 'dynamic',
          newSettings: DEFAULT_SETTINGS,
          target: '1.x',
        },
      );
      for (const f of r.findings) expect(f.message, f.ruleId).toBe(formatRuleMessage(f.ruleId, f.params));
      return r.findings.map((f) => `[${f.ruleId}] ${f.message}`);
    });
    CASES.forEach((c, i) => results.set(c.name, evaluated[i]!));
  });

  for (const c of CASES) {
    it(c.name, () => {
      expect(results.get(c.name)).toEqual(c.findings);
    });
  }
});
