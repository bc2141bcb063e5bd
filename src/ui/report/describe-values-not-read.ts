import { KRYO_VALUES_NEED_SAVED_SCHEMA } from '../../worker';

/**
 * A state whose value warnings were not checked (the report's `valuesNotRead`), as the app says it: a short label for
 * the states table and a sentence for the state's details. Protobuf held by Kryo that the new schema decodes is not
 * "not read": `check` leaves its values unchecked because a value warning needs the saved schema, which a Kryo snapshot
 * does not keep, while the Values view (as the CLI's dump) decodes them; every other reason is said as the report says it.
 */
export function describeValuesNotRead(reason: string): { label: string; sentence: string } {
  if (reason === KRYO_VALUES_NEED_SAVED_SCHEMA) {
    return {
      label: 'values not checked: no saved schema (Kryo)',
      sentence:
        "Values not checked: these values are held by Kryo, and a value warning compares each saved value with the change from the saved schema to the new one; a Kryo snapshot keeps no saved schema, so no value warning was checked for this state (check says the same). The Values view decodes them with the new schema, as the CLI's dump does; the savepoint the migration job writes (native state) is checked value by value.",
    };
  }
  return { label: 'values not read', sentence: `Values not read: ${reason}. No value warning was checked for this state.` };
}
