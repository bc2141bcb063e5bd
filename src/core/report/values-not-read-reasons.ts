/**
 * Why `check` reads no value warnings of Protobuf state held by Kryo that the new schema decodes: a value warning compares
 * saved values with the change from the saved schema to the new one, and a Kryo snapshot keeps no saved schema. The app
 * tells this reason in its own words (it has no command-line flags), so it is exported as one constant.
 */
import type { EvaluatedSavepoint } from './check-savepoint-types';

export const KRYO_VALUES_NEED_SAVED_SCHEMA =
  'values held by Kryo: their value warnings need the saved schema, which a Kryo snapshot does not keep; check the savepoint migration-job writes (native state, every value checked); dump and stats decode them here with --descriptors or --job-jar';

/** Why check scans no values of a Protobuf state held by Kryo (check's report and scan-job's project say the same). */
export function kryoValuesNotRead(found: EvaluatedSavepoint['kryo'][number]['found']): string {
  if (found.recognition.kind === 'plain') return "values written by Kryo's FieldSerializer: they hold protobuf-java's internal fields, not Protobuf bytes";
  // value warnings compare saved values with the change from the saved to the new schema; a Kryo snapshot saves no schema
  if (found.decodable) return KRYO_VALUES_NEED_SAVED_SCHEMA;
  return `values held by Kryo: not decodable with this descriptor set (no message whose Java class is ${found.kryo.typeClass})`;
}

/** Why check scans no values of a state written by flink-protobuf-serde. */
export function peerValuesNotRead(found: EvaluatedSavepoint['peer'][number]['found']): string {
  if (found.decodable)
    return 'values written by flink-protobuf-serde: check does not scan them for value warnings (dump and stats decode them with the schema, in an inferred framing)';
  const classes = found.peer.classesFound;
  return `values written by flink-protobuf-serde: not decodable with this schema (${classes.length === 0 ? 'no message class found in the snapshot' : `no message whose Java class is ${classes.join(' or ')}`})`;
}

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
