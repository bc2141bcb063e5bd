/** Rules for changes inside reached declarations, in the order docs/rules.md lists them. */
import type { RuleDefinition } from './rule';

/** A structure rule; id and template keep their literal types (a finding's parameters are the template's placeholders). */
const r = <const Id extends string, const Template extends string>(id: Id, outcome: 'accepted' | 'rejected', summary: string, template: Template) =>
  ({ id, outcome, group: 'structure', summary, template }) as const satisfies RuleDefinition;

export const STRUCTURE_RULES = [
  r('FIELD_ADDED', 'accepted', 'a field with a number the saved message neither used nor reserved is added', 'Field {number} ({name}) is added to {message}'),
  r(
    'RESERVED_NUMBER_REUSED',
    'rejected',
    'an added field uses a number the saved message reserved',
    'Field {number} ({name}) of {message} reuses a reserved number',
  ),
  r(
    'FIELD_REMOVED_RESERVED',
    'accepted',
    'a field is removed and its number reserved',
    'Field {number} ({name}) of {message} is removed and its number reserved',
  ),
  r(
    'FIELD_REMOVED_UNRESERVED',
    'rejected',
    'a field is removed without reserving its number',
    'Field {number} ({name}) of {message} is removed without reserving its number',
  ),
  r(
    'FIELD_NUMBER_REUSED',
    'rejected',
    'a saved field is removed and an unrelated one (another name and another type) is added at its number: the number is reused, the wire-dangerous case',
    'Field {number} ({name}, {from}) of {message} is removed and field {number} ({newName}, {to}) is added in its place: the number is reused, so the new parser reads the saved {name} data as {newName}',
  ),
  r('RESERVATION_REMOVED', 'rejected', 'a reserved range or name is removed', 'Reserved {what} of {declaration} is removed'),
  r('RESERVATION_ADDED', 'accepted', 'a reserved range or name is added', 'Reserved {what} is added to {declaration}'),
  r('ONEOF_ADDED', 'accepted', 'a oneof containing only added fields is added', 'Oneof {name} is added to {message}'),
  r('ENUM_VALUE_ADDED', 'accepted', 'an enum value is added', 'Enum value {number} ({name}) is added to {enum}'),
  r('ENUM_VALUE_REMOVED', 'rejected', 'an enum value is removed (reserved or not)', 'Enum value {number} ({name}) of {enum} is removed'),
  r('ENUM_VALUE_RENAMED', 'rejected', 'an enum value keeps its number under another name', 'Enum value {number} ({name}) of {enum} is renamed to {newName}'),
  r(
    'FIELD_TYPE_CHANGED',
    'rejected',
    "a retained field's type changes (including int32→int64, int32→sint32, string↔bytes)",
    'Field {number} ({name}) of {message} changes type from {from} to {to}',
  ),
  r(
    'FIELD_TYPE_NAME_CHANGED',
    'rejected',
    "a retained message/enum field's type name changes (includes renaming a reached type)",
    'Field {number} ({name}) of {message} changes type from {from} to {to}',
  ),
  r('FIELD_CARDINALITY_CHANGED', 'rejected', 'singular↔repeated, map↔repeated', 'Field {number} ({name}) of {message} changes cardinality from {from} to {to}'),
  r('FIELD_PRESENCE_CHANGED', 'rejected', 'proto3 optional added or removed', 'Field {number} ({name}) of {message} changes presence from {from} to {to}'),
  r(
    'FIELD_ONEOF_CHANGED',
    'rejected',
    'a retained field moves into, out of, or between oneofs',
    'Field {number} ({name}) of {message} moves from {from} to {to}',
  ),
  r('FIELD_RENAMED', 'rejected', 'a retained field is renamed', 'Field {number} ({name}) of {message} is renamed to {newName}'),
  r(
    'FIELD_DEFAULT_CHANGED',
    'rejected',
    "a retained field's default value changes",
    'Field {number} ({name}) of {message} changes default from {from} to {to}',
  ),
  r(
    'FIELD_JSON_NAME_CHANGED',
    'rejected',
    "a retained field's explicit json_name changes",
    'Field {number} ({name}) of {message} changes json_name from {from} to {to}',
  ),
  r('FIELD_OPTION_CHANGED', 'rejected', 'an option of a retained field changes', 'Field {number} ({name}) of {message} changes options: {changes}'),
  r('FIELD_ORDER_CHANGED', 'rejected', 'the relative order of retained fields changes', 'Fields of {message} change order: {moves}'),
  r('ENUM_VALUE_ORDER_CHANGED', 'rejected', 'the relative order of retained enum values changes', 'Values of {enum} change order: {moves}'),
  r('MESSAGE_OPTION_CHANGED', 'rejected', 'options of a reached or enclosing message change', 'Message {message} changes options: {changes}'),
  r('ENUM_OPTION_CHANGED', 'rejected', 'options of a reached enum change', 'Enum {enum} changes options: {changes}'),
  r('ENUM_VALUE_OPTION_CHANGED', 'rejected', 'options of a retained enum value change', 'Enum value {number} ({name}) of {enum} changes options: {changes}'),
  r('FILE_OPTION_CHANGED', 'rejected', 'options of a declaring file change (other than those of the next rule)', 'File {file} changes options: {changes}'),
  {
    ...r(
      'FILE_NON_JAVA_OPTION_CHANGED',
      'rejected',
      'file options that generated Java code never reads change (go_package, csharp_namespace, objc_class_prefix, php_*, ruby_package, swift_prefix, cc_*, py_generic_services)',
      'File {file} changes options generated Java code never reads ({changes})',
    ),
    note: 'flink-datastream-protobuf rejects it all the same: its restore check compares the descriptors of every file the root reaches whole, options included, so any option change there fails the restore; revert the change to restore the state',
  },
  r('FILE_PACKAGE_CHANGED', 'rejected', "a declaring file's package changes", 'File {file} changes package from {from} to {to}'),
  r('FILE_SYNTAX_CHANGED', 'rejected', "a declaring file's syntax or edition changes", 'File {file} changes syntax from {from} to {to}'),
  r(
    'PAYLOAD_NOT_PROTO3',
    'rejected',
    'the new schema makes a reached message proto2/editions, or adds a group, required field, extension, extension range or a field number above 536,870,911',
    '{what}; the new type information cannot be constructed',
  ),
  r('DECLARATION_CHANGED', 'rejected', 'any other difference in a reached declaration', '{declaration} changes {what}'),
] as const satisfies readonly RuleDefinition[];
