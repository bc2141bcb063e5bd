/** Rules for changes inside reached declarations, in the table's order. */
import type { RuleDefinition } from './rule';

const r = (
  id: string,
  outcome: 'accepted' | 'rejected',
  summary: string,
  template: string,
): RuleDefinition => ({ id, outcome, group: 'structure', summary, template });

export const STRUCTURE_RULES = [
  { ...r('FIELD_ADDED', 'accepted', 'a field with a number the saved message neither used nor reserved is added', 'Field {number} ({name}) is added to {message}'), id: 'FIELD_ADDED' },
  { ...r('RESERVED_NUMBER_REUSED', 'rejected', 'an added field uses a number the saved message reserved', 'Field {number} ({name}) of {message} reuses a reserved number'), id: 'RESERVED_NUMBER_REUSED' },
  { ...r('FIELD_REMOVED_RESERVED', 'accepted', 'a field is removed and its number reserved', 'Field {number} ({name}) of {message} is removed and its number reserved'), id: 'FIELD_REMOVED_RESERVED' },
  { ...r('FIELD_REMOVED_UNRESERVED', 'rejected', 'a field is removed without reserving its number', 'Field {number} ({name}) of {message} is removed without reserving its number'), id: 'FIELD_REMOVED_UNRESERVED' },
  { ...r('RESERVATION_REMOVED', 'rejected', 'a reserved range or name is removed', 'Reserved {what} of {declaration} is removed'), id: 'RESERVATION_REMOVED' },
  { ...r('RESERVATION_ADDED', 'accepted', 'a reserved range or name is added', 'Reserved {what} is added to {declaration}'), id: 'RESERVATION_ADDED' },
  { ...r('ONEOF_ADDED', 'accepted', 'a oneof containing only added fields is added', 'Oneof {name} is added to {message}'), id: 'ONEOF_ADDED' },
  { ...r('ENUM_VALUE_ADDED', 'accepted', 'an enum value is added', 'Enum value {number} ({name}) is added to {enum}'), id: 'ENUM_VALUE_ADDED' },
  { ...r('ENUM_VALUE_REMOVED', 'rejected', 'an enum value is removed (reserved or not)', 'Enum value {number} ({name}) of {enum} is removed'), id: 'ENUM_VALUE_REMOVED' },
  { ...r('ENUM_VALUE_RENAMED', 'rejected', 'an enum value keeps its number under another name', 'Enum value {number} ({name}) of {enum} is renamed to {newName}'), id: 'ENUM_VALUE_RENAMED' },
  { ...r('FIELD_TYPE_CHANGED', 'rejected', "a retained field's type changes (including int32→int64, int32→sint32, string↔bytes)", 'Field {number} ({name}) of {message} changes type from {from} to {to}'), id: 'FIELD_TYPE_CHANGED' },
  { ...r('FIELD_TYPE_NAME_CHANGED', 'rejected', "a retained message/enum field's type name changes (includes renaming a reached type)", 'Field {number} ({name}) of {message} changes type from {from} to {to}'), id: 'FIELD_TYPE_NAME_CHANGED' },
  { ...r('FIELD_CARDINALITY_CHANGED', 'rejected', 'singular↔repeated, map↔repeated', 'Field {number} ({name}) of {message} changes cardinality from {from} to {to}'), id: 'FIELD_CARDINALITY_CHANGED' },
  { ...r('FIELD_PRESENCE_CHANGED', 'rejected', 'proto3 optional added or removed', 'Field {number} ({name}) of {message} changes presence from {from} to {to}'), id: 'FIELD_PRESENCE_CHANGED' },
  { ...r('FIELD_ONEOF_CHANGED', 'rejected', 'a retained field moves into, out of, or between oneofs', 'Field {number} ({name}) of {message} moves from {from} to {to}'), id: 'FIELD_ONEOF_CHANGED' },
  { ...r('FIELD_RENAMED', 'rejected', 'a retained field is renamed', 'Field {number} ({name}) of {message} is renamed to {newName}'), id: 'FIELD_RENAMED' },
  { ...r('FIELD_DEFAULT_CHANGED', 'rejected', "a retained field's default value changes", 'Field {number} ({name}) of {message} changes default from {from} to {to}'), id: 'FIELD_DEFAULT_CHANGED' },
  { ...r('FIELD_JSON_NAME_CHANGED', 'rejected', "a retained field's explicit json_name changes", 'Field {number} ({name}) of {message} changes json_name from {from} to {to}'), id: 'FIELD_JSON_NAME_CHANGED' },
  { ...r('FIELD_OPTION_CHANGED', 'rejected', 'an option of a retained field changes', 'Field {number} ({name}) of {message} changes options: {changes}'), id: 'FIELD_OPTION_CHANGED' },
  { ...r('FIELD_ORDER_CHANGED', 'rejected', 'the relative order of retained fields changes', 'Fields of {message} change order from {from} to {to}'), id: 'FIELD_ORDER_CHANGED' },
  { ...r('ENUM_VALUE_ORDER_CHANGED', 'rejected', 'the relative order of retained enum values changes', 'Values of {enum} change order from {from} to {to}'), id: 'ENUM_VALUE_ORDER_CHANGED' },
  { ...r('MESSAGE_OPTION_CHANGED', 'rejected', 'options of a reached or enclosing message change', 'Message {message} changes options: {changes}'), id: 'MESSAGE_OPTION_CHANGED' },
  { ...r('ENUM_OPTION_CHANGED', 'rejected', 'options of a reached enum change', 'Enum {enum} changes options: {changes}'), id: 'ENUM_OPTION_CHANGED' },
  { ...r('ENUM_VALUE_OPTION_CHANGED', 'rejected', 'options of a retained enum value change', 'Enum value {number} ({name}) of {enum} changes options: {changes}'), id: 'ENUM_VALUE_OPTION_CHANGED' },
  { ...r('FILE_OPTION_CHANGED', 'rejected', 'options of a declaring file change', 'File {file} changes options: {changes}'), id: 'FILE_OPTION_CHANGED' },
  { ...r('FILE_PACKAGE_CHANGED', 'rejected', "a declaring file's package changes", 'File {file} changes package from {from} to {to}'), id: 'FILE_PACKAGE_CHANGED' },
  { ...r('FILE_SYNTAX_CHANGED', 'rejected', "a declaring file's syntax or edition changes", 'File {file} changes syntax from {from} to {to}'), id: 'FILE_SYNTAX_CHANGED' },
  { ...r('PAYLOAD_NOT_PROTO3', 'rejected', 'the new schema makes a reached message proto2/editions, or adds a group, required field, extension, extension range or a field number above 536,870,911', '{what}; the new type information cannot be constructed'), id: 'PAYLOAD_NOT_PROTO3' },
  { ...r('DECLARATION_CHANGED', 'rejected', 'any other difference in a reached declaration', '{declaration} changes {what}'), id: 'DECLARATION_CHANGED' },
] as const;
