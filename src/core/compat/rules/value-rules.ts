/** Value-level warnings: they need the scanned saved values. */
import type { RuleDefinition } from './rule';

const w = (id: string, summary: string, template: string): RuleDefinition => ({
  id, outcome: 'warning', group: 'value', summary, template,
});

export const VALUE_RULES = [
  { ...w('UNKNOWN_NUMBER_BECOMES_FIELD', 'saved values carry an unknown field whose number the new schema declares (added field)', '{count} saved value(s) carry unknown field {number} in {message}, which the new schema declares as {name}: the new parser reads the retained bytes as that field'), id: 'UNKNOWN_NUMBER_BECOMES_FIELD' },
  { ...w('UNKNOWN_REUSES_DECLARED_NUMBER', 'a value\'s unknown field has the number of a declared field with a wire type it accepts', '{count} saved value(s) carry unknown field {number} ({wireType}) in {message}, whose declared field {name} accepts that wire type: the serializer rejects such a value on write'), id: 'UNKNOWN_REUSES_DECLARED_NUMBER' },
  { ...w('UNKNOWN_NUMBER_TOO_LARGE', 'an unknown field number above 536,870,911', '{count} saved value(s) carry unknown field number {number} in {message}, above 536,870,911: rejected on write'), id: 'UNKNOWN_NUMBER_TOO_LARGE' },
  { ...w('VALUE_EXCEEDS_NEW_LIMIT', 'a saved payload exceeds the new maxMessageSize or recursionLimit', '{count} saved value(s) exceed the new {limit} of {value} (largest: {largest}): the new reader fails on them'), id: 'VALUE_EXCEEDS_NEW_LIMIT' },
  { ...w('REMOVED_FIELD_RETAINED', 'values carry data of a field removed with a reservation', '{count} saved value(s) carry data of field {number} ({name}) of {message}, removed with a reservation: it stays an unknown field and is written back by later savepoints'), id: 'REMOVED_FIELD_RETAINED' },
  { ...w('ALIASING_RETENTION', 'with aliasing, payloads above 4 KiB share their array with bytes/unknown length-delimited fields', '{count} saved value(s) above 4 KiB hold bytes fields or unknown length-delimited fields that would share the payload array under large-payload aliasing (largest payload: {largest} bytes)'), id: 'ALIASING_RETENTION' },
] as const;
