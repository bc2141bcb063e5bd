/**
 * Table of directional conformance cases (target 1.x): saved.proto vs new.proto text, the expected
 * verdict, the first incompatibility (rule id and exact message) and rule ids that must be among
 * the findings. `covers` names the rules a case stands for in the meta-test.
 */
import type { RuleId } from '../../src/core/compat/rules/index';

export interface DirectionalCase {
  name: string;
  covers: RuleId[];
  saved: Record<string, string>;
  next: Record<string, string>;
  root?: string;
  newRoot?: string;
  verdict: 'compatible' | 'incompatible' | 'not-restorable';
  /** overrides of the new side (defaults: same kind, class and settings as saved, target 1.x) */
  newKind?: 'generated' | 'dynamic';
  newJavaClass?: string;
  newSettings?: Partial<{ deterministicSerialization: boolean; maxMessageSize: number; recursionLimit: number; largePayloadAliasing: boolean }>;
  savedLine?: '0.x' | '1.x';
  target?: '0.x' | '1.x';
  first?: { ruleId: RuleId; message: string };
  /** rule ids (with outcome) that must appear among the findings */
  has?: { ruleId: RuleId; accepted: boolean }[];
  /** rule ids that must not appear at all */
  lacks?: RuleId[];
  /** no finding at all */
  noFindings?: boolean;
}

const HEADER = `syntax = "proto3";
package example;
option java_package = "io.example";
option java_outer_classname = "Events";
`;

/** event.proto with the given Event body and extra declarations. */
export function eventProto(eventBody: string, extra = DEFAULT_EXTRA, header = HEADER): Record<string, string> {
  return { 'event.proto': `${header}message Event {\n${eventBody}\n}\n${extra}` };
}

const DEFAULT_EXTRA = `message Detail { string text = 1; }
enum Kind { UNKNOWN = 0; READY = 1; }
message Unrelated { int32 x = 1; }
`;
const BASE = `  int32 id = 1;
  int32 count = 2;
  Detail detail = 3;
  Kind kind = 4;`;

const acc = (ruleId: RuleId): { ruleId: RuleId; accepted: boolean } => ({ ruleId, accepted: true });
const rej = (ruleId: RuleId): { ruleId: RuleId; accepted: boolean } => ({ ruleId, accepted: false });

export const DIRECTIONAL_CASES: DirectionalCase[] = [
  {
    name: 'unchanged schema',
    covers: [
      'FIELD_TYPE_NAME_CHANGED',
      'FIELD_CARDINALITY_CHANGED',
      'FIELD_PRESENCE_CHANGED',
      'FIELD_RENAMED',
      'FIELD_NUMBER_REUSED',
      'FIELD_DEFAULT_CHANGED',
      'ENUM_VALUE_ORDER_CHANGED',
      'MESSAGE_OPTION_CHANGED',
      'ENUM_OPTION_CHANGED',
      'ENUM_VALUE_OPTION_CHANGED',
      'ROOT_RENAMED',
      'NEW_ROOT_MISSING',
      'FILE_OPTION_CHANGED',
      'FILE_NON_JAVA_OPTION_CHANGED',
      'FILE_PACKAGE_CHANGED',
      'FILE_SYNTAX_CHANGED',
      'FIELD_OPTION_CHANGED',
    ],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    verdict: 'compatible',
    noFindings: true,
  },
  {
    name: 'largest field number is still proto3',
    covers: ['PAYLOAD_NOT_PROTO3', 'FIELD_ADDED'],
    saved: eventProto(BASE),
    next: eventProto(`${BASE}\n  int32 big = 536870911;`),
    verdict: 'compatible',
    lacks: ['PAYLOAD_NOT_PROTO3'],
  },
  {
    name: 'int32 to sint32 (the serializer example)',
    covers: ['FIELD_TYPE_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count', 'sint32 count')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_TYPE_CHANGED', message: 'Field 2 (count) of example.Event changes type from INT32 to SINT32' },
  },
  {
    name: 'string to bytes',
    covers: ['FIELD_TYPE_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('string text', 'bytes text')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_TYPE_CHANGED', message: 'Field 1 (text) of example.Detail changes type from STRING to BYTES' },
  },
  {
    name: 'field added with a fresh number',
    covers: ['FIELD_ADDED', 'RESERVED_NUMBER_REUSED'],
    saved: eventProto(BASE),
    next: eventProto(`${BASE}\n  string label = 5;`),
    verdict: 'compatible',
    has: [acc('FIELD_ADDED')],
  },
  {
    name: 'added field reuses a reserved number',
    covers: ['RESERVED_NUMBER_REUSED', 'FIELD_ADDED', 'RESERVATION_REMOVED'],
    saved: eventProto(`${BASE}\n  reserved 5;`),
    next: eventProto(`${BASE}\n  string label = 5;`),
    verdict: 'incompatible',
    first: { ruleId: 'RESERVED_NUMBER_REUSED', message: 'Field 5 (label) of example.Event reuses a reserved number' },
    has: [rej('RESERVATION_REMOVED')],
  },
  {
    name: 'field removed and reserved',
    covers: ['FIELD_REMOVED_RESERVED', 'RESERVATION_ADDED'],
    saved: eventProto(BASE),
    next: eventProto(`  int32 id = 1;\n  reserved 2;\n  Detail detail = 3;\n  Kind kind = 4;`),
    verdict: 'compatible',
    has: [acc('FIELD_REMOVED_RESERVED'), acc('RESERVATION_ADDED')],
  },
  {
    name: 'field removed without reservation',
    covers: ['FIELD_REMOVED_UNRESERVED', 'FIELD_REMOVED_RESERVED'],
    saved: eventProto(BASE),
    next: eventProto(`  int32 id = 1;\n  Detail detail = 3;\n  Kind kind = 4;`),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_REMOVED_UNRESERVED', message: 'Field 2 (count) of example.Event is removed without reserving its number' },
  },
  {
    name: 'reservation removed',
    covers: ['RESERVATION_REMOVED'],
    saved: eventProto(`${BASE}\n  reserved 5 to 7;\n  reserved "old";`),
    next: eventProto(`${BASE}\n  reserved "old";`),
    verdict: 'incompatible',
    first: { ruleId: 'RESERVATION_REMOVED', message: 'Reserved range 5 to 7 of example.Event is removed' },
  },
  {
    name: 'reserved name removed',
    covers: ['RESERVATION_REMOVED'],
    saved: eventProto(`${BASE}\n  reserved "old";`),
    next: eventProto(BASE),
    verdict: 'incompatible',
    first: { ruleId: 'RESERVATION_REMOVED', message: 'Reserved name "old" of example.Event is removed' },
  },
  {
    name: 'reservation added',
    covers: ['RESERVATION_ADDED', 'RESERVATION_REMOVED'],
    saved: eventProto(BASE),
    next: eventProto(`${BASE}\n  reserved 10 to 12;\n  reserved "later";`),
    verdict: 'compatible',
    has: [acc('RESERVATION_ADDED')],
  },
  {
    name: 'oneof of added fields',
    covers: ['ONEOF_ADDED', 'FIELD_ONEOF_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(`${BASE}\n  oneof choice {\n    string a = 5;\n    int64 b = 6;\n  }`),
    verdict: 'compatible',
    has: [acc('ONEOF_ADDED'), acc('FIELD_ADDED')],
  },
  {
    name: 'oneof wrapping a retained field',
    covers: ['ONEOF_ADDED', 'FIELD_ONEOF_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(`  int32 id = 1;\n  oneof choice {\n    int32 count = 2;\n    string other = 5;\n  }\n  Detail detail = 3;\n  Kind kind = 4;`),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_ONEOF_CHANGED', message: 'Field 2 (count) of example.Event moves from no oneof to oneof choice' },
    lacks: ['ONEOF_ADDED'],
  },
  {
    name: 'enum value added',
    covers: ['ENUM_VALUE_ADDED', 'ENUM_VALUE_REMOVED', 'ENUM_VALUE_RENAMED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('READY = 1;', 'READY = 1; DONE = 2;')),
    verdict: 'compatible',
    has: [acc('ENUM_VALUE_ADDED')],
  },
  {
    name: 'enum value removed (reserved)',
    covers: ['ENUM_VALUE_REMOVED', 'ENUM_VALUE_ADDED', 'RESERVATION_ADDED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('READY = 1;', 'reserved 1;')),
    verdict: 'incompatible',
    first: { ruleId: 'ENUM_VALUE_REMOVED', message: 'Enum value 1 (READY) of example.Kind is removed' },
    has: [acc('RESERVATION_ADDED')],
  },
  {
    name: 'enum value renamed',
    covers: ['ENUM_VALUE_RENAMED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('READY = 1;', 'DONE = 1;')),
    verdict: 'incompatible',
    first: { ruleId: 'ENUM_VALUE_RENAMED', message: 'Enum value 1 (READY) of example.Kind is renamed to DONE' },
  },
  {
    name: 'message type renamed',
    covers: ['FIELD_TYPE_NAME_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('Detail detail', 'Info detail'), DEFAULT_EXTRA.replace('message Detail', 'message Info')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_TYPE_NAME_CHANGED', message: 'Field 3 (detail) of example.Event changes type from example.Detail to example.Info' },
  },
  {
    name: 'singular to repeated',
    covers: ['FIELD_CARDINALITY_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count', 'repeated int32 count')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_CARDINALITY_CHANGED', message: 'Field 2 (count) of example.Event changes cardinality from singular to repeated' },
  },
  {
    name: 'map to repeated entries',
    covers: ['FIELD_CARDINALITY_CHANGED'],
    saved: eventProto(`${BASE}\n  map<string, Detail> details = 5;`),
    next: eventProto(`${BASE}\n  repeated DetailsEntry details = 5;\n  message DetailsEntry { string key = 1; Detail value = 2; }`),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_CARDINALITY_CHANGED', message: 'Field 5 (details) of example.Event changes cardinality from map to repeated' },
  },
  {
    name: 'proto3 optional added',
    covers: ['FIELD_PRESENCE_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count', 'optional int32 count')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_PRESENCE_CHANGED', message: 'Field 2 (count) of example.Event changes presence from implicit to explicit (optional)' },
  },
  {
    name: 'field renamed',
    covers: ['FIELD_RENAMED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count', 'int32 total')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_RENAMED', message: 'Field 2 (count) of example.Event is renamed to total' },
  },
  {
    name: 'field replaced by an unrelated one at the same number',
    covers: ['FIELD_NUMBER_REUSED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count = 2;', 'string label = 2;')),
    verdict: 'incompatible',
    first: {
      ruleId: 'FIELD_NUMBER_REUSED',
      message:
        'Field 2 (count, INT32) of example.Event is removed and field 2 (label, STRING) is added in its place: the number is reused, so the new parser reads the saved count data as label',
    },
    lacks: ['FIELD_RENAMED', 'FIELD_TYPE_CHANGED', 'FIELD_ADDED', 'FIELD_REMOVED_UNRESERVED'],
  },
  {
    name: 'explicit json_name set',
    covers: ['FIELD_JSON_NAME_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count = 2;', 'int32 count = 2 [json_name = "cnt"];')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_JSON_NAME_CHANGED', message: 'Field 2 (count) of example.Event changes json_name from none to "cnt"' },
  },
  {
    name: 'derived json_name noise of protoc output has no effect',
    covers: ['FIELD_JSON_NAME_CHANGED'],
    saved: eventProto(`${BASE}\n  string user_name = 5;`),
    next: eventProto(`${BASE}\n  string user_name = 5 [json_name = "userName"];`),
    verdict: 'compatible',
    lacks: ['FIELD_JSON_NAME_CHANGED'],
  },
  {
    name: 'field option deprecated added',
    covers: ['FIELD_OPTION_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE.replace('int32 count = 2;', 'int32 count = 2 [deprecated = true];')),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_OPTION_CHANGED', message: 'Field 2 (count) of example.Event changes options: deprecated: unset → true' },
  },
  {
    name: 'retained fields reordered',
    covers: ['FIELD_ORDER_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(`  int32 count = 2;\n  int32 id = 1;\n  Detail detail = 3;\n  Kind kind = 4;`),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_ORDER_CHANGED', message: 'Fields of example.Event change order: 2 (count) now comes first' },
  },
  {
    name: 'field added in the middle keeps the retained order',
    covers: ['FIELD_ORDER_CHANGED', 'FIELD_ADDED'],
    saved: eventProto(BASE),
    next: eventProto(`  int32 id = 1;\n  string label = 9;\n  int32 count = 2;\n  Detail detail = 3;\n  Kind kind = 4;`),
    verdict: 'compatible',
    lacks: ['FIELD_ORDER_CHANGED'],
  },
  {
    name: 'enum values reordered',
    covers: ['ENUM_VALUE_ORDER_CHANGED'],
    saved: eventProto(BASE, DEFAULT_EXTRA.replace('READY = 1;', 'READY = 1; DONE = 2;')),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('READY = 1;', 'DONE = 2; READY = 1;')),
    verdict: 'incompatible',
    first: { ruleId: 'ENUM_VALUE_ORDER_CHANGED', message: 'Values of example.Kind change order: DONE now comes after UNKNOWN' },
  },
  {
    name: 'message option of the root',
    covers: ['MESSAGE_OPTION_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(`  option deprecated = true;\n${BASE}`),
    verdict: 'incompatible',
    first: { ruleId: 'MESSAGE_OPTION_CHANGED', message: 'Message example.Event changes options: deprecated: unset → true' },
  },
  {
    name: 'enum option',
    covers: ['ENUM_OPTION_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('enum Kind {', 'enum Kind { option deprecated = true;')),
    verdict: 'incompatible',
    first: { ruleId: 'ENUM_OPTION_CHANGED', message: 'Enum example.Kind changes options: deprecated: unset → true' },
  },
  {
    name: 'enum value option',
    covers: ['ENUM_VALUE_OPTION_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('READY = 1;', 'READY = 1 [deprecated = true];')),
    verdict: 'incompatible',
    first: { ruleId: 'ENUM_VALUE_OPTION_CHANGED', message: 'Enum value 1 (READY) of example.Kind changes options: deprecated: unset → true' },
  },
  {
    name: 'file option change in the declaring file',
    covers: ['FILE_OPTION_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA, HEADER.replace('"Events"', '"EventProtos"')),
    verdict: 'incompatible',
    first: { ruleId: 'FILE_OPTION_CHANGED', message: 'File event.proto changes options: java_outer_classname: "Events" → "EventProtos"' },
  },
  {
    name: 'file option generated Java never reads (go_package) in the declaring file',
    covers: ['FILE_NON_JAVA_OPTION_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA, `${HEADER}option go_package = "example.com/event";\n`),
    verdict: 'incompatible',
    first: {
      ruleId: 'FILE_NON_JAVA_OPTION_CHANGED',
      message:
        'File event.proto changes options generated Java code never reads (go_package: unset → "example.com/event"); flink-datastream-protobuf rejects it all the same: its restore check compares the descriptors of every file the root reaches whole, options included, so any option change there fails the restore; revert the change to restore the state',
    },
    lacks: ['FILE_OPTION_CHANGED'],
  },
  {
    name: 'file option change in an imported declaring file',
    covers: ['FILE_OPTION_CHANGED'],
    saved: withDetailImport(''),
    next: withDetailImport('option deprecated = true;\n'),
    verdict: 'incompatible',
    first: { ruleId: 'FILE_OPTION_CHANGED', message: 'File detail.proto changes options: deprecated: unset → true' },
  },
  {
    name: 'file option change in a file that declares nothing reached',
    covers: ['FILE_OPTION_CHANGED'],
    saved: withUnreachedImport(''),
    next: withUnreachedImport('option deprecated = true;\n'),
    verdict: 'compatible',
    lacks: ['FILE_OPTION_CHANGED'],
  },
  {
    name: 'package change of the root file',
    covers: ['FILE_PACKAGE_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA, HEADER.replace('package example;', 'package example.v2;')),
    newRoot: 'example.v2.Event',
    verdict: 'incompatible',
    first: { ruleId: 'ROOT_RENAMED', message: 'Root message changes from example.Event to example.v2.Event' },
    has: [rej('FILE_PACKAGE_CHANGED'), rej('FIELD_TYPE_NAME_CHANGED')],
  },
  {
    name: 'syntax proto3 to proto2',
    covers: ['FILE_SYNTAX_CHANGED', 'PAYLOAD_NOT_PROTO3'],
    saved: eventProto(BASE),
    next: eventProto(
      BASE.replace(/ (int32|Detail|Kind) /g, ' optional $1 '),
      DEFAULT_EXTRA.replace('string text', 'optional string text').replace('int32 x', 'optional int32 x'),
      HEADER.replace('proto3', 'proto2'),
    ),
    verdict: 'incompatible',
    first: { ruleId: 'FILE_SYNTAX_CHANGED', message: 'File event.proto changes syntax from proto3 to proto2' },
    has: [rej('PAYLOAD_NOT_PROTO3')],
  },
  {
    name: 'proto2 payload gains an extension range',
    covers: ['PAYLOAD_NOT_PROTO3'],
    saved: proto2Event(''),
    next: proto2Event('  extensions 100 to 199;\n'),
    verdict: 'incompatible',
    first: {
      ruleId: 'PAYLOAD_NOT_PROTO3',
      message: 'Message example.Event is declared in proto2 file event.proto; the new type information cannot be constructed',
    },
    has: [rej('PAYLOAD_NOT_PROTO3')],
  },
  {
    name: 'changed message reached only through a map value',
    covers: ['FIELD_TYPE_CHANGED'],
    saved: eventProto(`${BASE}\n  map<string, Entry> entries = 5;`, `${DEFAULT_EXTRA}message Entry { int32 v = 1; }\n`),
    next: eventProto(`${BASE}\n  map<string, Entry> entries = 5;`, `${DEFAULT_EXTRA}message Entry { int64 v = 1; }\n`),
    verdict: 'incompatible',
    first: { ruleId: 'FIELD_TYPE_CHANGED', message: 'Field 1 (v) of example.Entry changes type from INT32 to INT64' },
  },
  {
    name: 'change in an unreached message has no effect',
    covers: ['FIELD_TYPE_CHANGED', 'FIELD_REMOVED_UNRESERVED'],
    saved: eventProto(BASE),
    next: eventProto(BASE, DEFAULT_EXTRA.replace('message Unrelated { int32 x = 1; }', 'message Unrelated { int64 y = 2; }')),
    verdict: 'compatible',
    lacks: ['FIELD_TYPE_CHANGED', 'FIELD_REMOVED_UNRESERVED'],
  },
  {
    name: "a removed field's type is not reached",
    covers: ['FIELD_REMOVED_RESERVED', 'FIELD_TYPE_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(`  int32 id = 1;\n  int32 count = 2;\n  reserved 3;\n  Kind kind = 4;`, DEFAULT_EXTRA.replace('string text', 'bytes text')),
    verdict: 'compatible',
    lacks: ['FIELD_TYPE_CHANGED'],
  },
  {
    name: 'default value changed (proto2 saved and new)',
    covers: ['FIELD_DEFAULT_CHANGED'],
    saved: proto2Event('', '7'),
    next: proto2Event('', '8'),
    verdict: 'incompatible',
    first: {
      ruleId: 'PAYLOAD_NOT_PROTO3',
      message: 'Message example.Event is declared in proto2 file event.proto; the new type information cannot be constructed',
    },
    has: [rej('FIELD_DEFAULT_CHANGED')],
  },
  {
    name: 'oneof options change',
    covers: ['DECLARATION_CHANGED'],
    saved: eventProto(`${BASE}\n  oneof choice {\n    string a = 5;\n  }`),
    next: eventProto(
      `${BASE}\n  oneof choice {\n    option (example.tag) = 1;\n    string a = 5;\n  }`,
      `${DEFAULT_EXTRA}extend google.protobuf.OneofOptions { int32 tag = 50000; }\n`,
      HEADER + 'import "google/protobuf/descriptor.proto";\n',
    ),
    verdict: 'incompatible',
    first: { ruleId: 'DECLARATION_CHANGED', message: 'Oneof choice of example.Event changes options: (example.tag): unset → 1' },
  },
  {
    name: 'recursive message, unchanged',
    covers: ['DECLARATION_CHANGED'],
    saved: eventProto(`${BASE}\n  Event parent = 5;`),
    next: eventProto(`${BASE}\n  Event parent = 5;`),
    verdict: 'compatible',
    lacks: ['DECLARATION_CHANGED'],
  },
  {
    name: 'identity: the new schema has no message of the root name',
    covers: ['NEW_ROOT_MISSING'],
    saved: eventProto(BASE),
    next: { 'event.proto': `${HEADER}message Other {\n  int32 id = 1;\n}\n` },
    verdict: 'incompatible',
    first: { ruleId: 'NEW_ROOT_MISSING', message: 'The new schema has no message example.Event' },
    lacks: ['JAVA_CLASS_CHANGED'],
  },
  {
    name: 'identity: root message changed by the user pick',
    covers: ['ROOT_RENAMED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    newRoot: 'example.Detail',
    verdict: 'incompatible',
    first: { ruleId: 'ROOT_RENAMED', message: 'Root message changes from example.Event to example.Detail' },
  },
];

/** Identity, settings and target-line cases over the same schema pair. */
export const IDENTITY_CASES: DirectionalCase[] = [
  {
    name: 'unchanged identity and settings',
    covers: ['TYPE_KIND_CHANGED', 'JAVA_CLASS_CHANGED', 'MAX_MESSAGE_SIZE_DECREASED', 'RECURSION_LIMIT_DECREASED', 'TARGET_CANNOT_READ_SNAPSHOT'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    verdict: 'compatible',
    noFindings: true,
  },
  {
    name: 'generated state restored as DynamicMessage',
    covers: ['TYPE_KIND_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    newKind: 'dynamic',
    verdict: 'incompatible',
    first: { ruleId: 'TYPE_KIND_CHANGED', message: 'Saved generated state cannot be restored as dynamic' },
  },
  {
    name: 'another generated class',
    covers: ['JAVA_CLASS_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    newJavaClass: 'io.example.v2.Events$Event',
    verdict: 'incompatible',
    first: { ruleId: 'JAVA_CLASS_CHANGED', message: 'Java class changes from io.example.Events$Event to io.example.v2.Events$Event' },
  },
  {
    name: 'limits raised, flags flipped',
    covers: ['MAX_MESSAGE_SIZE_INCREASED', 'RECURSION_LIMIT_INCREASED', 'DETERMINISTIC_SERIALIZATION_CHANGED', 'LARGE_PAYLOAD_ALIASING_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    newSettings: { maxMessageSize: 134_217_728, recursionLimit: 200, deterministicSerialization: true, largePayloadAliasing: false },
    verdict: 'compatible',
    has: [
      acc('MAX_MESSAGE_SIZE_INCREASED'),
      acc('RECURSION_LIMIT_INCREASED'),
      acc('DETERMINISTIC_SERIALIZATION_CHANGED'),
      acc('LARGE_PAYLOAD_ALIASING_CHANGED'),
    ],
  },
  {
    name: 'size decreased while depth raised and flags flipped',
    covers: ['MAX_MESSAGE_SIZE_DECREASED', 'RECURSION_LIMIT_INCREASED', 'DETERMINISTIC_SERIALIZATION_CHANGED', 'LARGE_PAYLOAD_ALIASING_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    newSettings: { maxMessageSize: 1024, recursionLimit: 200, deterministicSerialization: true, largePayloadAliasing: false },
    verdict: 'incompatible',
    first: { ruleId: 'MAX_MESSAGE_SIZE_DECREASED', message: 'maxMessageSize decreases from 67108864 to 1024' },
  },
  {
    name: 'depth decreased while size raised',
    covers: ['RECURSION_LIMIT_DECREASED', 'MAX_MESSAGE_SIZE_INCREASED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    newSettings: { maxMessageSize: 134_217_728, recursionLimit: 99 },
    verdict: 'incompatible',
    first: { ruleId: 'RECURSION_LIMIT_DECREASED', message: 'recursionLimit decreases from 100 to 99' },
  },
  {
    name: '0.x snapshot, target 1.x',
    covers: ['TARGET_CANNOT_READ_SNAPSHOT'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    savedLine: '0.x',
    verdict: 'not-restorable',
    first: {
      ruleId: 'TARGET_CANNOT_READ_SNAPSHOT',
      message:
        'test.ProtobufSnapshot (0.x) cannot be read by target 1.x: 1.0.0 removed the 0.x snapshot classes, so Flink fails the restore; start with fresh state or replay the input',
    },
  },
  {
    name: '0.x exact rule, unchanged',
    covers: ['EXACT_SCHEMA_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(BASE),
    savedLine: '0.x',
    target: '0.x',
    verdict: 'compatible',
    noFindings: true,
  },
  {
    name: '0.x exact rule rejects even an accepted change',
    covers: ['EXACT_SCHEMA_CHANGED'],
    saved: eventProto(BASE),
    next: eventProto(`${BASE}\n  string label = 5;`),
    savedLine: '0.x',
    target: '0.x',
    verdict: 'incompatible',
    first: {
      ruleId: 'EXACT_SCHEMA_CHANGED',
      message: 'Normalized descriptor set differs from the saved one (0.x accepts only an identical schema): Field 5 (label) is added to example.Event',
    },
  },
];

function withDetailImport(detailHeader: string): Record<string, string> {
  return {
    'event.proto': `${HEADER}import "detail.proto";\nmessage Event {\n  int32 id = 1;\n  Detail detail = 3;\n}\n`,
    'detail.proto': `syntax = "proto3";\npackage example;\n${detailHeader}message Detail { string text = 1; }\n`,
  };
}

function withUnreachedImport(otherHeader: string): Record<string, string> {
  return {
    'event.proto': `${HEADER}import "other.proto";\nmessage Event {\n  int32 id = 1;\n}\nmessage Holder { example.other.Other o = 1; }\n`,
    'other.proto': `syntax = "proto3";\npackage example.other;\n${otherHeader}message Other { string text = 1; }\n`,
  };
}

function proto2Event(extra: string, defaultValue = '7'): Record<string, string> {
  return {
    'event.proto': `syntax = "proto2";\npackage example;\nmessage Event {\n  optional int32 id = 1;\n  optional int32 count = 2 [default = ${defaultValue}];\n${extra}}\n`,
  };
}
