/** Value-level warnings: they need the scanned saved values. */
import type { RuleDefinition } from './rule';

/** A value rule; id and template keep their literal types (a warning's parameters are the template's placeholders). */
const w = <const Id extends string, const Template extends string>(id: Id, summary: string, template: Template) =>
  ({ id, outcome: 'warning', group: 'value', summary, template }) as const satisfies RuleDefinition;

export const VALUE_RULES = [
  w(
    'UNKNOWN_NUMBER_BECOMES_FIELD',
    'saved values carry an unknown field whose number the new schema declares (added field)',
    '{count} saved value(s) carry unknown field {number} in {message}, which the new schema declares as {name}: the new parser reads the retained bytes as that field',
  ),
  {
    ...w(
      'UNKNOWN_REUSES_DECLARED_NUMBER',
      "a value's unknown field has the number of a declared field with a wire type it accepts",
      '{count} saved value(s) carry unknown field {number} ({wireType}) in {message}, whose declared field {name} accepts that wire type: the serializer rejects such a value on write',
    ),
    scan: {
      check: 'reused-number',
      examples: {
        'reused-number':
          'field {number} of {typeName} is written after unknown fields or out of field-number order, as only an unknown field reusing that declared number is written',
      },
    },
  },
  {
    ...w(
      'UNKNOWN_NUMBER_TOO_LARGE',
      'an unknown field number above 536,870,911',
      '{count} saved value(s) carry unknown field number {number} in {message}, above 536,870,911: rejected on write',
    ),
    scan: { check: 'number-too-large', examples: { 'number-too-large': 'a tag carries field number {number}, above 536,870,911' } },
  },
  {
    ...w(
      'VALUE_EXCEEDS_NEW_LIMIT',
      'a saved payload exceeds the new maxMessageSize or recursionLimit',
      '{count} saved value(s) exceed the new {limit} of {value} (largest: {largest}): the new reader fails on them',
    ),
    scan: {
      check: 'exceeds-new-limit',
      examples: {
        'payload-too-large': 'a {payloadSize}-byte payload exceeds the new maxMessageSize {value}',
        'too-deep': 'nesting depth {depth} exceeds the new recursionLimit {value}',
      },
    },
  },
  w(
    'REMOVED_FIELD_RETAINED',
    'values carry data of a field removed with a reservation',
    '{count} saved value(s) carry data of field {number} ({name}) of {message}, removed with a reservation: it stays an unknown field and is written back by later savepoints',
  ),
  {
    ...w(
      'ALIASING_RETENTION',
      'with aliasing, payloads above 4 KiB share their array with bytes/unknown length-delimited fields',
      '{count} saved value(s) above 4 KiB hold bytes fields or unknown length-delimited fields that would share the payload array under large-payload aliasing (largest payload: {largest} bytes)',
    ),
    scan: {
      check: 'aliased-payload',
      examples: {
        'aliased-payload':
          'a {payloadSize}-byte payload shares its array with {aliasableFields} bytes/unknown length-delimited field(s) ({aliasableBytes} bytes); a retained one keeps all {payloadSize} bytes alive',
      },
    },
  },
] as const satisfies readonly RuleDefinition[];
