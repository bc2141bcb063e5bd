import type { SerializerSnapshot } from '../core/flink';

/** A typed column of the values table: one field of a Table row (RowData) key or value. */
export interface RowColumn {
  name: string;
  /** the field's logical type, e.g. `BIGINT`, `VARCHAR(2147483647)` */
  type: string;
}

const ROW_DATA_SNAPSHOT = 'org.apache.flink.table.runtime.typeutils.RowDataSerializer$RowDataSerializerSnapshot';

/**
 * The typed columns of a Table row serializer (`RowDataSerializer`: its RowType's field names and logical
 * types, as the snapshot records them; fields without a saved name are `f0`, `f1`, …), or undefined for
 * any other serializer (its values keep one column).
 */
export function listRowColumns(s: SerializerSnapshot | undefined): RowColumn[] | undefined {
  if (s?.className !== ROW_DATA_SNAPSHOT) return undefined;
  const fields = s.details?.fields;
  if (!Array.isArray(fields)) return undefined;
  return fields.map((f: { name?: unknown; type?: unknown }, i) => ({
    name: typeof f.name === 'string' ? f.name : `f${i}`,
    type: typeof f.type === 'string' ? f.type : '',
  }));
}
