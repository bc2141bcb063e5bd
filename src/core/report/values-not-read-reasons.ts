/**
 * Why `check` reads no value warnings of Protobuf state held by Kryo that the new schema decodes: a value warning compares
 * saved values with the change from the saved schema to the new one, and a Kryo snapshot keeps no saved schema. The app
 * tells this reason in its own words (it has no command-line flags), so it is exported as one constant.
 */
export const KRYO_VALUES_NEED_SAVED_SCHEMA =
  'values held by Kryo: their value warnings need the saved schema, which a Kryo snapshot does not keep; check the savepoint migration-job writes (native state, every value checked); dump and stats decode them here with --descriptors or --job-jar';

/**
 * The report's states whose value warnings were not checked, split by why: `kryo`, Protobuf held by Kryo (readable, but
 * with no saved schema to compare with), and `unread`, every other reason (each state says which). The summary sentences
 * of `notChecked`, the formats' summary line and the app's Overview count them apart.
 */
export function countValuesNotChecked(states: readonly { valuesNotRead?: string | undefined }[]): { kryo: number; unread: number } {
  let kryo = 0;
  let unread = 0;
  for (const s of states) {
    if (s.valuesNotRead === KRYO_VALUES_NEED_SAVED_SCHEMA) kryo++;
    else if (s.valuesNotRead !== undefined) unread++;
  }
  return { kryo, unread };
}
